/**
 * Kept only for routes/distributions.ts, which imports `paymentMethodKey` from here and is not
 * this family's file: the ticket selection that lived here is ../ticket-selection.ts now, the
 * payment methods ../sales-analyses/figures.ts. Point that import at figures.ts, then delete
 * this file.
 */
export { PAYMENT_METHODS, type PaymentMethod, paymentMethodKey } from '../sales-analyses/figures.ts';
