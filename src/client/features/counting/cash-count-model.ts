/**
 * The cash-count form's model (issue #3 point 1): what the user typed → the contract's body
 * (CashCountBodySchema), the live totals, expected vs counted and the variance per method, and
 * which parts the site's rules require. Pure functions, so the screen and the tests share them.
 */
import {
  type CashCount,
  type CashCountBody,
  CashCountBodySchema,
  DENOMINATIONS_CENTS,
  type DenominationCount,
  denominationsTotalCents,
  type MethodAmounts,
  RULE_DEFAULTS,
  type RequiredCounts,
  type Rule,
} from '../../../contract/counting.ts';
import { parseMoneyToCents } from './money-input.ts';

/** The parts of a cash count (wire names of MethodAmounts without `Cents`). */
export const COUNT_PARTS = ['cash', 'cheques', 'mealVouchers', 'cardSlips'] as const;
export type CountPart = (typeof COUNT_PARTS)[number];

/** What the form holds while the user types. Amount fields keep the text as typed. */
export interface CashCountForm {
  site: number | null;
  dateFiscale: string | null;
  caisse: number | null;
  /** Quantity per denomination (cents → count). */
  quantities: Record<number, number>;
  /** True once the user touched the cash grid (an untouched, not required grid is "not counted"). */
  cashTouched: boolean;
  cheques: string;
  mealVouchers: string;
  cardSlips: string;
  comment: string;
}

export function emptyCashCountForm(
  site: number | null,
  dateFiscale: string,
  caisse: number | null,
): CashCountForm {
  return {
    site,
    dateFiscale,
    caisse,
    quantities: {},
    cashTouched: false,
    cheques: '',
    mealVouchers: '',
    cardSlips: '',
    comment: '',
  };
}

/** Which parts are required: from the expected answer when known, else the site's rules, else the defaults. */
export function requiredParts(
  rules: readonly Rule[] | null,
  required?: RequiredCounts | null,
): RequiredCounts {
  if (required) return required;
  const active = (libelle: Rule['libelle']) =>
    rules?.find((r) => r.libelle === libelle)?.active ?? RULE_DEFAULTS[libelle];
  return {
    cash: active('comptageEspeces'),
    cheques: active('comptageCheques'),
    mealVouchers: active('comptageTicketsRestaurant'),
    cardSlips: active('comptageCartes'),
  };
}

/** Counted lines of the grid, largest denomination first, zero quantities left out. */
export function cashLines(quantities: Readonly<Record<number, number>>): DenominationCount[] {
  return DENOMINATIONS_CENTS.filter((d) => (quantities[d] ?? 0) > 0).map((d) => ({
    denominationCents: d,
    quantity: quantities[d] ?? 0,
  }));
}

/**
 * Cents of a typed total (cheques, meal vouchers, card slips): a required part left empty was
 * counted and found empty, so it is 0 (issue #20 item 3); an optional one left empty was not
 * counted (null). `'invalid'` when the text is not an amount.
 */
export function partCents(text: string, required: boolean): number | null | 'invalid' {
  const v = parseMoneyToCents(text);
  return v === null && required ? 0 : v;
}

/** Per part: counted cents (null = not counted or not a valid amount yet). */
export function countedAmounts(
  form: CashCountForm,
  required: RequiredCounts,
): Record<CountPart, number | null> {
  const amount = (part: 'cheques' | 'mealVouchers' | 'cardSlips') => {
    const v = partCents(form[part], required[part]);
    return v === 'invalid' ? null : v;
  };
  return {
    cash:
      required.cash || form.cashTouched || cashLines(form.quantities).length > 0
        ? denominationsTotalCents(cashLines(form.quantities))
        : null,
    cheques: amount('cheques'),
    mealVouchers: amount('mealVouchers'),
    cardSlips: amount('cardSlips'),
  };
}

const EXPECTED_KEY: Record<CountPart, keyof MethodAmounts> = {
  cash: 'cashCents',
  cheques: 'chequesCents',
  mealVouchers: 'mealVouchersCents',
  cardSlips: 'cardSlipsCents',
};

/** One row of the live summary: expected, counted, variance (counted − expected), all cents or null. */
export interface PartSummary {
  part: CountPart;
  required: boolean;
  expected: number | null;
  counted: number | null;
  variance: number | null;
}

export function summary(
  form: CashCountForm,
  expected: MethodAmounts | null,
  required: RequiredCounts,
): PartSummary[] {
  const counted = countedAmounts(form, required);
  return COUNT_PARTS.map((part) => {
    const e = expected ? expected[EXPECTED_KEY[part]] : null;
    const c = counted[part];
    return {
      part,
      required: required[part],
      expected: e,
      counted: c,
      variance: e !== null && c !== null ? c - e : null,
    };
  });
}

/**
 * The totals of a stored count, in cents, as the day's list shows them: everything counted, and
 * the sum of the variances per method. A method not counted (null) adds nothing.
 */
export function storedCountTotals(
  count: Pick<CashCount, 'cashCents' | 'chequesCents' | 'mealVouchersCents' | 'cardSlipsCents' | 'variance'>,
): { countedCents: number; varianceCents: number } {
  const { variance } = count;
  return {
    countedCents:
      (count.cashCents ?? 0) +
      (count.chequesCents ?? 0) +
      (count.mealVouchersCents ?? 0) +
      (count.cardSlipsCents ?? 0),
    varianceCents:
      (variance.cashCents ?? 0) +
      (variance.chequesCents ?? 0) +
      (variance.mealVouchersCents ?? 0) +
      (variance.cardSlipsCents ?? 0),
  };
}

/** A form error: which field, and the message id to show. */
export interface FieldError {
  field: CountPart | 'site' | 'dateFiscale' | 'caisse' | 'comment';
  messageId: string;
}

/** Result of {@link toCashCountBody}: the body to send, or the errors to show (the form keeps its values). */
export type BodyResult = { ok: true; body: CashCountBody } | { ok: false; errors: FieldError[] };

/**
 * Builds the body of POST bo/comptage/save and validates it with the contract's schema and the
 * site's rules: a required part left empty is sent as 0 (never null, which the server refuses
 * with 400 `MissingCount`); an unreadable amount is a field error.
 * `countedAt` is the device's time of the count (ISO), kept by the server beside its own.
 */
export function toCashCountBody(
  form: CashCountForm,
  required: RequiredCounts,
  countedAt: string,
): BodyResult {
  const errors: FieldError[] = [];
  if (form.site === null) errors.push({ field: 'site', messageId: 'counting.error.site' });
  if (form.dateFiscale === null) errors.push({ field: 'dateFiscale', messageId: 'counting.error.date' });
  if (form.caisse === null) errors.push({ field: 'caisse', messageId: 'counting.error.terminal' });
  const amount = (part: 'cheques' | 'mealVouchers' | 'cardSlips') => {
    const v = partCents(form[part], required[part]);
    if (v !== 'invalid') return v;
    errors.push({ field: part, messageId: 'counting.error.amount' });
    return null;
  };
  const chequesCents = amount('cheques');
  const mealVouchersCents = amount('mealVouchers');
  const cardSlipsCents = amount('cardSlips');
  const counted = countedAmounts(form, required);
  if (errors.length > 0) return { ok: false, errors };
  const body: CashCountBody = {
    site: form.site ?? 0,
    dateFiscale: form.dateFiscale ?? '',
    caisse: form.caisse ?? 0,
    cash: counted.cash === null ? null : cashLines(form.quantities),
    chequesCents,
    mealVouchersCents,
    cardSlipsCents,
    comment: form.comment.trim(),
    countedAt,
  };
  const parsed = CashCountBodySchema.safeParse(body);
  if (!parsed.success) {
    const fieldOf = (path: readonly PropertyKey[]): FieldError['field'] => {
      const head = String(path[0] ?? '');
      if (head === 'cash') return 'cash';
      if (head === 'chequesCents') return 'cheques';
      if (head === 'mealVouchersCents') return 'mealVouchers';
      if (head === 'cardSlipsCents') return 'cardSlips';
      if (head === 'site' || head === 'dateFiscale' || head === 'caisse' || head === 'comment') return head;
      return 'comment';
    };
    return {
      ok: false,
      errors: parsed.error.issues.map((issue) => ({
        field: fieldOf(issue.path),
        messageId: 'counting.error.invalid',
      })),
    };
  }
  return { ok: true, body };
}

/** The form again from a queued body (fixing an item that needs attention, from /sync). */
export function formFromBody(body: CashCountBody, locale: string): CashCountForm {
  const text = (cents: number | null | undefined) =>
    cents === null || cents === undefined
      ? ''
      : locale === 'en'
        ? (cents / 100).toFixed(2)
        : (cents / 100).toFixed(2).replace('.', ',');
  const quantities: Record<number, number> = {};
  for (const line of body.cash ?? []) quantities[line.denominationCents] = line.quantity;
  return {
    site: body.site,
    dateFiscale: body.dateFiscale,
    caisse: body.caisse,
    quantities,
    cashTouched: body.cash !== null,
    cheques: text(body.chequesCents),
    mealVouchers: text(body.mealVouchersCents),
    cardSlips: text(body.cardSlipsCents),
    comment: body.comment ?? '',
  };
}
