/**
 * The /config/<partner> form's draft (issue #29, decision 0044): the integration as typed, its
 * headers with the state of their secret values, and the body the save sends. A secret header
 * whose value is stored shows "••• set" until the administrator asks to replace it; saved without
 * a value it keeps the stored one (POST bo/integrations/save).
 */
import {
  ARTICLE_FIELDS,
  type Integration,
  type IntegrationField,
  PARTNER_DATA,
  PAYMENT_FIELDS,
  type Partner,
} from '../../../contract/integrations.ts';

/** One header as typed: `stored` when its secret value is on the server and not being replaced. */
export interface DraftHeader {
  nom: string;
  valeur: string;
  secret: boolean;
  stored: boolean;
}

/** The form's draft: the integration without the credentials flag, its headers as typed. */
export type Draft = Omit<Integration, 'identifiantsEnregistres'> & { entetes: DraftHeader[] };

/** The draft of a saved (or default) integration. */
export function draftOf(i: Integration): Draft {
  const { identifiantsEnregistres: _, ...rest } = i;
  const entetes =
    i.destination.type === 'https'
      ? i.destination.entetes.map((h) => ({
          nom: h.nom,
          valeur: h.valeur ?? '',
          secret: h.secret,
          stored: h.secret && h.valeur === undefined,
        }))
      : [];
  return { ...rest, entetes };
}

/** The body of POST bo/integrations/save: a stored secret not replaced is sent without value. */
export function saveBody(draft: Draft): Omit<Integration, 'identifiantsEnregistres'> {
  const { entetes, ...rest } = draft;
  const d = rest.destination;
  if (d.type !== 'https') return rest;
  return {
    ...rest,
    destination: {
      ...d,
      entetes: entetes.map((h) =>
        h.secret && h.stored
          ? { nom: h.nom.trim(), secret: true }
          : { nom: h.nom.trim(), valeur: h.valeur, secret: h.secret },
      ),
    },
  };
}

/** The fields `partner`'s data has, in the order the column picker offers them. */
export function fieldsOf(partner: Partner): readonly IntegrationField[] {
  return PARTNER_DATA[partner] === 'articles' ? ARTICLE_FIELDS : PAYMENT_FIELDS;
}

/** `list` with the item at `from` moved to `to` (both within bounds). */
export function moved<T>(list: readonly T[], from: number, to: number): T[] {
  const copy = [...list];
  const [item] = copy.splice(from, 1);
  copy.splice(to, 0, item as T);
  return copy;
}

/** A refusal the server tied to one column or header: `field` `colonnes` or `entetes`, its place and reason. */
export interface ItemError {
  field: 'colonnes' | 'entetes';
  index: number;
  reason: string;
}

/** The refusal of `details` (an InvalidField's) when it names one column or header, else null. */
export function itemError(details: Record<string, unknown> | undefined): ItemError | null {
  const field = details?.field;
  const index = details?.index;
  if ((field !== 'colonnes' && field !== 'entetes') || typeof index !== 'number') return null;
  return { field, index, reason: String(details?.reason ?? '') };
}
