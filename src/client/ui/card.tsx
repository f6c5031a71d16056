/**
 * A card: the bordered surface the feature screens group their content in, as a section named
 * by its title (a {@link CardTitle} with the id `labelledBy`), so every screen draws the same one.
 */
import type { ReactNode } from 'react';
import './card.css';

export function Card({ labelledBy, children }: { labelledBy: string; children: ReactNode }) {
  return (
    <section className="ui-card" aria-labelledby={labelledBy}>
      {children}
    </section>
  );
}

/** A card's title (h2); its `id` names the card. */
export function CardTitle({ id, children }: { id: string; children: ReactNode }) {
  return (
    <h2 id={id} className="ui-card__title">
      {children}
    </h2>
  );
}
