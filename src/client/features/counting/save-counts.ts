/**
 * The counting writes (issue #3 points 1–4). Every one goes through the outbox, online or not:
 * stored on the device with its local record in one transaction, then sent by the replayer with
 * its Idempotency-Key, so it reaches the server exactly once whatever the network does. A write
 * the server refused comes back here to be fixed (`fixOutboxId`): it is resent in place, under a
 * new key, never queued twice.
 */
import type { CashCountBody, ReceiptComplements, SafeCountBody } from '../../../contract/counting.ts';
import { resendWrite, submitWrite } from '../../lib/outbox/page-outbox.ts';

/** Who writes: the signed-in user's id (query `id`, SPEC.md §7) and login (owner of the item). */
export interface Author {
  id: number;
  login: string;
}

/**
 * The device tables the counting records are kept in, by the outbox's local records (the names
 * version 1 of the database gave their stores, so records and queued writes from then still match).
 */
export const COUNTING_TABLES = {
  cashCount: 'cashCounts',
  safeCount: 'safeCounts',
  receipt: 'receipts',
} as const;

/**
 * The replay lane of a counting write: the business record it changes, so that two counts of the
 * same drawer (a count and its recount, each a new version on the server) arrive in the order
 * they were made, while other drawers' counts are sent meanwhile:
 * - cash count: site, fiscal date (YYYY-MM-DD) and terminal;
 * - safe count: site and fiscal date;
 * - receipts (create and update): site and fiscal date.
 */
export function countingLane(
  kind: 'cashCount' | 'safeCount' | 'receipt',
  site: number,
  fiscalDate: string,
  terminal?: number,
): string {
  if (kind === 'cashCount') return `cash|${site}|${fiscalDate}|${terminal}`;
  if (kind === 'safeCount') return `safe|${site}|${fiscalDate}`;
  return `receipt|${site}|${fiscalDate}`;
}

/** Resends the refused write `fixOutboxId` in place with `change`, or queues a new one. */
async function fixOrQueue(
  fixOutboxId: string | null,
  change: { body: unknown; data: Record<string, unknown>; summary: Record<string, string | number> },
  queue: () => Promise<unknown>,
): Promise<void> {
  if (fixOutboxId) {
    await resendWrite(fixOutboxId, change);
    return;
  }
  await queue();
}

/** Where each kind of count is sent (SPEC.md §7) and which device table keeps it. */
const COUNT_WRITES = {
  cashCount: { path: 'bo/comptage/save', table: COUNTING_TABLES.cashCount },
  safeCount: { path: 'coffre/save', table: COUNTING_TABLES.safeCount },
} as const;

/**
 * Queues a count (cash or safe): POST to its path ?id with the body as it is, recorded on the
 * device under its site and fiscal date; or resends the refused item `fixOutboxId` in place.
 */
async function saveCount(
  kind: keyof typeof COUNT_WRITES,
  author: Author,
  body: CashCountBody | SafeCountBody,
  summary: Record<string, string | number>,
  fixOutboxId: string | null,
) {
  const { path, table } = COUNT_WRITES[kind];
  const data = { ...body } satisfies Record<string, unknown>;
  await fixOrQueue(fixOutboxId, { body, data, summary }, () =>
    submitWrite({
      kind,
      lane: countingLane(kind, body.site, body.dateFiscale, 'caisse' in body ? body.caisse : undefined),
      method: 'POST',
      path,
      searchParams: { id: String(author.id) },
      body,
      login: author.login,
      summary,
      record: { table, siteId: body.site, fiscalDate: body.dateFiscale, data },
    }),
  );
}

/** Queues POST bo/comptage/save?id (a new version of the terminal's count). */
export async function saveCashCount(author: Author, body: CashCountBody, fixOutboxId: string | null = null) {
  const summary = { site: body.site, date: body.dateFiscale, terminal: body.caisse };
  await saveCount('cashCount', author, body, summary, fixOutboxId);
}

/** Queues POST coffre/save?id (a new version of the site's safe count). */
export async function saveSafeCount(author: Author, body: SafeCountBody, fixOutboxId: string | null = null) {
  await saveCount('safeCount', author, body, { site: body.site, date: body.dateFiscale }, fixOutboxId);
}

/** A receipt as typed: who (seller, manager), where, when, and its complements (SPEC.md §7). */
export interface ReceiptInput {
  site: number;
  dateFiscale: string;
  codeVendeur: string;
  nomVendeur: string;
  codeManager: string;
  nomManager: string;
  complements: ReceiptComplements;
  /** Server id when editing a stored receipt (updateDocument). */
  documentId: number | null;
}

/** Queues POST bo/documentsManager/createDocument or updateDocument (query + complements body). */
export async function saveReceipt(author: Author, input: ReceiptInput, fixOutboxId: string | null = null) {
  const searchParams: Record<string, string> = {
    id: String(author.id),
    codeVendeur: input.codeVendeur,
    codeManager: input.codeManager,
    nomVendeur: input.nomVendeur,
    nomManager: input.nomManager,
    site: String(input.site),
    dateFiscale: input.dateFiscale,
  };
  if (input.documentId !== null) searchParams.documentId = String(input.documentId);
  const summary = {
    site: input.site,
    date: input.dateFiscale,
    seller: input.nomVendeur,
    amount: (input.complements.montantCents / 100).toFixed(2),
  };
  const data = { ...input } satisfies Record<string, unknown>;
  if (fixOutboxId) {
    // A receipt's parameters travel in the query: a fix rewrites the item's query too.
    await resendWrite(fixOutboxId, { body: input.complements, data, summary, searchParams });
    return;
  }
  await submitWrite({
    kind: input.documentId === null ? 'receipt' : 'receiptUpdate',
    lane: countingLane('receipt', input.site, input.dateFiscale),
    method: 'POST',
    path:
      input.documentId === null ? 'bo/documentsManager/createDocument' : 'bo/documentsManager/updateDocument',
    searchParams,
    body: input.complements,
    login: author.login,
    summary,
    record: { table: COUNTING_TABLES.receipt, siteId: input.site, fiscalDate: input.dateFiscale, data },
  });
}
