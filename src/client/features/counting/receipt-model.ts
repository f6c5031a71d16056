/**
 * The manager-receipt form's model (issue #3 point 3): seller and manager codes and names, and the
 * complements (amount, reason, comment), validated with the contract's schemas
 * (CreateReceiptQuerySchema, ReceiptComplementsSchema) before anything is queued.
 */
import {
  CreateReceiptQuerySchema,
  type Receipt,
  ReceiptComplementsSchema,
} from '../../../contract/counting.ts';
import { centsToInput, parseMoneyToCents } from './money-input.ts';
import type { ReceiptInput } from './save-counts.ts';

export interface ReceiptForm {
  site: number | null;
  dateFiscale: string | null;
  codeVendeur: string;
  nomVendeur: string;
  codeManager: string;
  nomManager: string;
  amount: string;
  motif: string;
  commentaire: string;
  /** Server id when editing a stored receipt. */
  documentId: number | null;
}

export type ReceiptField = Exclude<keyof ReceiptForm, 'documentId'>;

export function emptyReceiptForm(site: number | null, dateFiscale: string, nomManager: string): ReceiptForm {
  return {
    site,
    dateFiscale,
    codeVendeur: '',
    nomVendeur: '',
    codeManager: '',
    nomManager,
    amount: '',
    motif: '',
    commentaire: '',
    documentId: null,
  };
}

export type ReceiptResult =
  | { ok: true; input: ReceiptInput }
  | { ok: false; errors: { field: ReceiptField; messageId: string }[] };

const QUERY_FIELDS: Record<string, ReceiptField> = {
  codeVendeur: 'codeVendeur',
  codeManager: 'codeManager',
  nomVendeur: 'nomVendeur',
  nomManager: 'nomManager',
  site: 'site',
  dateFiscale: 'dateFiscale',
};

export function toReceiptInput(form: ReceiptForm): ReceiptResult {
  const errors: { field: ReceiptField; messageId: string }[] = [];
  const query = CreateReceiptQuerySchema.safeParse({
    codeVendeur: form.codeVendeur.trim(),
    codeManager: form.codeManager.trim(),
    nomVendeur: form.nomVendeur.trim(),
    nomManager: form.nomManager.trim(),
    site: form.site ?? undefined,
    dateFiscale: form.dateFiscale ?? undefined,
  });
  if (!query.success) {
    for (const issue of query.error.issues) {
      const field = QUERY_FIELDS[String(issue.path[0])] ?? 'site';
      errors.push({ field, messageId: 'counting.error.required' });
    }
  }
  // The server defaults a missing site (SPEC.md §7 names none); this form always says which.
  if (form.site === null) errors.push({ field: 'site', messageId: 'counting.error.required' });
  if (form.dateFiscale === null) errors.push({ field: 'dateFiscale', messageId: 'counting.error.date' });
  const cents = parseMoneyToCents(form.amount);
  if (cents === 'invalid') errors.push({ field: 'amount', messageId: 'counting.error.amount' });
  else if (cents === null) errors.push({ field: 'amount', messageId: 'counting.error.required' });
  const complements = ReceiptComplementsSchema.safeParse({
    montantCents: typeof cents === 'number' ? cents : 0,
    motif: form.motif.trim(),
    commentaire: form.commentaire.trim(),
  });
  if (!complements.success) {
    for (const issue of complements.error.issues) {
      const head = String(issue.path[0]);
      if (head === 'motif') errors.push({ field: 'motif', messageId: 'counting.error.required' });
      else if (head === 'commentaire')
        errors.push({ field: 'commentaire', messageId: 'counting.error.invalid' });
    }
  }
  if (errors.length > 0 || !query.success || !complements.success || form.site === null)
    return { ok: false, errors };
  return {
    ok: true,
    input: {
      site: form.site,
      dateFiscale: form.dateFiscale ?? '',
      codeVendeur: query.data.codeVendeur,
      nomVendeur: query.data.nomVendeur,
      codeManager: query.data.codeManager,
      nomManager: query.data.nomManager,
      complements: complements.data,
      documentId: form.documentId,
    },
  };
}

/** The form from a stored receipt (edit → updateDocument). */
export function receiptFormFromReceipt(r: Receipt, locale: string): ReceiptForm {
  return {
    site: r.restaurantId,
    dateFiscale: r.dateFiscale,
    codeVendeur: r.numVendeur,
    nomVendeur: r.libVendeur,
    codeManager: r.codeManager,
    nomManager: r.nomManager,
    amount: centsToInput(r.complements.montantCents, locale),
    motif: r.complements.motif,
    commentaire: r.complements.commentaire,
    documentId: r.id,
  };
}

/** The form from a queued receipt (what `saveReceipt` stored as the local record's data). */
export function receiptFormFromInput(input: ReceiptInput, locale: string): ReceiptForm {
  return {
    site: input.site,
    dateFiscale: input.dateFiscale,
    codeVendeur: input.codeVendeur,
    nomVendeur: input.nomVendeur,
    codeManager: input.codeManager,
    nomManager: input.nomManager,
    amount: centsToInput(input.complements.montantCents, locale),
    motif: input.complements.motif,
    commentaire: input.complements.commentaire,
    documentId: input.documentId,
  };
}
