/**
 * The values of a report filter (bo/getGroupements) as the user reads them, shared by the filter
 * of /rapports and the favourite summaries of /configFavoris.
 */
import type { IntlShape } from 'react-intl';

/**
 * A value of filter `filtre` as bo/getGroupements labels it: a VAT rate (a fraction, "0.055")
 * as a percentage, a payment method by its name, anything else (a family) as it is.
 */
export function describeFilterValue(intl: IntlShape, filtre: string, value: string): string {
  if (filtre === 'TVA' && value.trim() !== '' && Number.isFinite(Number(value))) {
    return intl.formatNumber(Number(value), { style: 'percent', maximumFractionDigits: 2 });
  }
  const id = `report.paymentMethod.${value}`;
  if (filtre === 'PAIEMENT' && id in intl.messages) return intl.formatMessage({ id });
  return value;
}
