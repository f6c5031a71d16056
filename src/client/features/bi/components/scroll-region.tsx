/**
 * A table that may be wider than the screen, in a region the keyboard can scroll: the region is
 * focusable and named (axe "scrollable-region-focusable"; WCAG 2.1.1), and the shared table's own
 * scroll box is told not to scroll (bi.css) so there is one scroll box, this one.
 */
import type { ReactNode } from 'react';

export function ScrollRegion({ label, children }: { label: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take the focus to scroll by keyboard
    <section className="bi-scroll" aria-label={label} tabIndex={0}>
      {children}
    </section>
  );
}
