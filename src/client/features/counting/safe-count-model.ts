/**
 * The safe-count form's model (issue #3 point 2): opening float, deposits and withdrawals typed
 * as amounts, the content counted by denomination; expected = opening + deposits − withdrawals,
 * variance = counted − expected, live. Builds and validates the contract's SafeCountBody.
 */
import {
  type SafeCountBody,
  SafeCountBodySchema,
  denominationsTotalCents,
} from '../../../contract/counting.ts';
import { cashLines } from './cash-count-model.ts';
import { centsToInput, parseMoneyToCents } from './money-input.ts';

export interface SafeCountForm {
  site: number | null;
  dateFiscale: string | null;
  opening: string;
  deposits: string;
  withdrawals: string;
  quantities: Record<number, number>;
  comment: string;
}

export type SafeField =
  | 'site'
  | 'dateFiscale'
  | 'opening'
  | 'deposits'
  | 'withdrawals'
  | 'contents'
  | 'comment';

export function emptySafeCountForm(site: number | null, dateFiscale: string): SafeCountForm {
  return { site, dateFiscale, opening: '', deposits: '', withdrawals: '', quantities: {}, comment: '' };
}

/** Live figures in cents; `expected` null while an amount is not a valid number. */
export function safeFigures(form: SafeCountForm): {
  expected: number | null;
  counted: number;
  variance: number | null;
} {
  const v = (t: string) => {
    const c = parseMoneyToCents(t);
    return c === 'invalid' ? null : (c ?? 0);
  };
  const opening = v(form.opening);
  const deposits = v(form.deposits);
  const withdrawals = v(form.withdrawals);
  const counted = denominationsTotalCents(cashLines(form.quantities));
  const expected =
    opening === null || deposits === null || withdrawals === null ? null : opening + deposits - withdrawals;
  return { expected, counted, variance: expected === null ? null : counted - expected };
}

export type SafeBodyResult =
  | { ok: true; body: SafeCountBody }
  | { ok: false; errors: { field: SafeField; messageId: string }[] };

/** Body of POST coffre/save; empty deposits and withdrawals count as 0, the opening float is required. */
export function toSafeCountBody(form: SafeCountForm, countedAt: string): SafeBodyResult {
  const errors: { field: SafeField; messageId: string }[] = [];
  if (form.site === null) errors.push({ field: 'site', messageId: 'counting.error.site' });
  if (form.dateFiscale === null) errors.push({ field: 'dateFiscale', messageId: 'counting.error.date' });
  const amount = (field: 'opening' | 'deposits' | 'withdrawals', required: boolean) => {
    const v = parseMoneyToCents(form[field]);
    if (v === 'invalid') errors.push({ field, messageId: 'counting.error.amount' });
    else if (v === null && required) errors.push({ field, messageId: 'counting.error.required' });
    return v === 'invalid' ? 0 : (v ?? 0);
  };
  const openingCents = amount('opening', true);
  const depositsCents = amount('deposits', false);
  const withdrawalsCents = amount('withdrawals', false);
  if (errors.length > 0) return { ok: false, errors };
  const body: SafeCountBody = {
    site: form.site ?? 0,
    dateFiscale: form.dateFiscale ?? '',
    openingCents,
    depositsCents,
    withdrawalsCents,
    contents: cashLines(form.quantities),
    comment: form.comment.trim(),
    countedAt,
  };
  const parsed = SafeCountBodySchema.safeParse(body);
  if (!parsed.success) {
    return {
      ok: false,
      errors: parsed.error.issues.map((i) => {
        const head = String(i.path[0] ?? '');
        const field: SafeField =
          head === 'openingCents'
            ? 'opening'
            : head === 'depositsCents'
              ? 'deposits'
              : head === 'withdrawalsCents'
                ? 'withdrawals'
                : head === 'contents'
                  ? 'contents'
                  : head === 'site' || head === 'dateFiscale'
                    ? head
                    : 'comment';
        return { field, messageId: 'counting.error.invalid' };
      }),
    };
  }
  return { ok: true, body };
}

/** The form again from a queued body (fixing a refused write). */
export function safeFormFromBody(body: SafeCountBody, locale: string): SafeCountForm {
  const quantities: Record<number, number> = {};
  for (const l of body.contents) quantities[l.denominationCents] = l.quantity;
  return {
    site: body.site,
    dateFiscale: body.dateFiscale,
    opening: centsToInput(body.openingCents, locale),
    deposits: centsToInput(body.depositsCents, locale),
    withdrawals: centsToInput(body.withdrawalsCents, locale),
    quantities,
    comment: body.comment ?? '',
  };
}
