/**
 * How a stored message (table admin_messages) becomes the contract's AdminMessage, and which of
 * its texts a reader gets. Shared by the administration's list and the users' messages/all.
 */
import { type AdminMessage, LANGUAGES } from '../../contract/administration.ts';
import type { MessageSeverity } from '../db/schema-administration.ts';

/** A message's texts per language (`{ fr, en, de }`, the empty ones left out). */
export type MessageTexts = Partial<Record<(typeof LANGUAGES)[number], string>>;

/** One row of admin_messages as the domain's queries select it ({@link MESSAGE_COLUMNS}). */
export interface MessageRow {
  id: number;
  texts: MessageTexts;
  severity: MessageSeverity;
  from_date: string;
  to_date: string;
  site_ids: number[];
  profile_ids: number[];
  created_at: Date;
}

/** The columns of {@link MessageRow}, for `SELECT` and `RETURNING` (table alias `m` optional). */
export const MESSAGE_COLUMNS = 'id, texts, severity, from_date, to_date, site_ids, profile_ids, created_at';

/** `language` when it is one of the interface's (SPEC.md §9), else null. */
export function knownLanguage(language: string | null | undefined): (typeof LANGUAGES)[number] | null {
  return LANGUAGES.find((l) => l === language) ?? null;
}

/**
 * The text a reader of `language` gets (SPEC.md §7 messages/all): theirs, else the French one
 * (the default language, SPEC.md §9), else the first given in the order fr, en, de; '' when
 * the message has none (never stored: a message needs one text).
 */
export function textFor(texts: MessageTexts, language: string | null): string {
  const own = knownLanguage(language);
  if (own && texts[own]) return texts[own];
  if (texts.fr) return texts.fr;
  return LANGUAGES.map((l) => texts[l]).find((t) => t) ?? '';
}

/** A stored message as the contract shows it, its `text` in `language` ({@link textFor}). */
export function toAdminMessage(row: MessageRow, language: string | null): AdminMessage {
  return {
    id: row.id,
    texts: row.texts,
    text: textFor(row.texts, language),
    severity: row.severity,
    fromDate: row.from_date,
    toDate: row.to_date,
    restaurantIds: row.site_ids,
    profileIds: row.profile_ids,
    createdAt: row.created_at.toISOString(),
  };
}
