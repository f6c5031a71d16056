/**
 * A card: the bordered surface the feature screens group their content in, as a section named
 * by its title (a {@link CardTitle} with the id `labelledBy`) or, for a card with no title of its
 * own (a chart that carries its title), by `label` — so every screen draws the same one.
 */
import type { ReactNode, Ref } from 'react';
import './card.css';

/**
 * The card surface's class, for an element that looks like a card but is not a named section
 * (a lone paragraph, a fieldset with its legend). Importing it loads the card's styles.
 */
export const cardClass = 'ui-card';

/** A card's name: the id of its title, or a text when it shows none. */
type CardName = { labelledBy: string; label?: never } | { label: string; labelledBy?: never };

/**
 * @param className the screen's own classes, added to the card's (layout, or hooks for its tests).
 */
export function Card({
  labelledBy,
  label,
  className,
  children,
}: CardName & { className?: string; children: ReactNode }) {
  return (
    <section
      className={className ? `${cardClass} ${className}` : cardClass}
      aria-labelledby={labelledBy}
      aria-label={label}
    >
      {children}
    </section>
  );
}

/**
 * A card's title (h2); its `id` names the card.
 * @param focusRef given when the screen moves the focus to this title (a new result appeared):
 *   the title then takes the focus from script, but stays out of the tab order.
 */
export function CardTitle({
  id,
  focusRef,
  children,
}: {
  id: string;
  focusRef?: Ref<HTMLHeadingElement>;
  children: ReactNode;
}) {
  return (
    <h2 id={id} className="ui-card__title" ref={focusRef} tabIndex={focusRef ? -1 : undefined}>
      {children}
    </h2>
  );
}
