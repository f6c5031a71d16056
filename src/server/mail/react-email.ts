/**
 * React Email (`@react-email/components` and `@react-email/render`), loaded on the first HTML
 * mail rendered by this process rather than at start: with Tailwind, Prettier, Prism and Marked
 * behind its components, it weighs tens of MB that a server sending no mail need not hold
 * (issue #32 E.2, the CSV's peak memory). One load per process, shared by every caller.
 */
import type * as Components from '@react-email/components';
import type { render, toPlainText } from '@react-email/render';

/** The components, with `render` (React tree → HTML) and `toPlainText` (HTML → text). */
export type ReactEmail = typeof Components & { render: typeof render; toPlainText: typeof toPlainText };

let loading: Promise<ReactEmail> | undefined;

/** React Email, loaded once (the first call imports it; later calls share the same promise). */
export function reactEmail(): Promise<ReactEmail> {
  loading ??= Promise.all([import('@react-email/components'), import('@react-email/render')]).then(
    ([components, renderer]) => ({
      ...components,
      render: renderer.render,
      toPlainText: renderer.toPlainText,
    }),
  );
  return loading;
}
