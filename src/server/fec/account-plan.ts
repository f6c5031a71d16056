/**
 * A company's account plan for its FEC sales entries (issue #29, docs/decisions/0037): which
 * account of the French Plan comptable général (PCG) each figure of a sales day goes to. Keys:
 *
 * - `SALES_<rate>` / `VAT_<rate>`: sales excl. VAT and VAT collected at a rate (a fraction as
 *   the reports write it: `SALES_0.2`, `VAT_0.055`);
 * - `PAYMENT_<method>`: cashed with a payment method (figures.ts PAYMENT_METHODS);
 * - `PAYMENT_NONE`: sales of tickets with no payment recorded (an import without payments), on a
 *   waiting account rather than as a rounding gap;
 * - `ROUNDING_DEBIT` / `ROUNDING_CREDIT`: the cent gap between payments and sales of a day.
 *
 * The defaults are the PCG accounts cited in decision 0037.
 */

/** One account: a PCG number and its label. */
export interface PlanAccount {
  /** Digits only, class 1–8, at least 3 digits (PCG). */
  account: string;
  label: string;
}

/** A plan: key → account (see the module doc for the keys). */
export type AccountPlan = Record<string, PlanAccount>;

/** The VAT rates of France the default plan knows (fractions). */
export const DEFAULT_RATES = [0.2, 0.1, 0.055, 0.021, 0] as const;

/** The key of a rate's sales or VAT account (`SALES_0.2`). */
export function rateKey(kind: 'SALES' | 'VAT', rate: number): string {
  return `${kind}_${rate}`;
}

/** The key of a payment method's account (`PAYMENT_CASH`). */
export function paymentKey(method: string): string {
  return `PAYMENT_${method}`;
}

const RATE_LABEL: Record<string, string> = {
  '0.2': '20 %',
  '0.1': '10 %',
  '0.055': '5,5 %',
  '0.021': '2,1 %',
  '0': '0 %',
};

/** The default plan (decision 0037): 7071x sales and 44571x VAT per rate, 530 / 511x / 4718, 658 / 758. */
export function defaultAccountPlan(): AccountPlan {
  const plan: AccountPlan = {};
  DEFAULT_RATES.forEach((rate, i) => {
    const label = RATE_LABEL[String(rate)] ?? String(rate);
    plan[rateKey('SALES', rate)] = { account: `7071${i + 1}`, label: `Ventes de marchandises ${label}` };
    if (rate > 0) plan[rateKey('VAT', rate)] = { account: `44571${i + 1}`, label: `TVA collectée ${label}` };
  });
  plan[paymentKey('CASH')] = { account: '530', label: 'Caisse' };
  plan[paymentKey('CHEQUE')] = { account: '5112', label: 'Chèques à encaisser' };
  plan[paymentKey('CARD')] = { account: '5115', label: 'Cartes bancaires à encaisser' };
  plan[paymentKey('MEAL_VOUCHER')] = { account: '5113', label: 'Titres-restaurant à encaisser' };
  plan[paymentKey('OTHER')] = { account: '4718', label: 'Autres encaissements à classer' };
  plan[paymentKey('NONE')] = { account: '4711', label: 'Ventes sans règlement enregistré' };
  plan.ROUNDING_DEBIT = { account: '658', label: 'Charges diverses de gestion courante' };
  plan.ROUNDING_CREDIT = { account: '758', label: 'Produits divers de gestion courante' };
  return plan;
}

/** True when `account` is a PCG account number (contract/fec.ts, shared with the /fec form). */
export { isPcgAccount } from '../../contract/fec.ts';
