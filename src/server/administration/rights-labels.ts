/**
 * The rights a profile can hold, labelled for people (SPEC.md §7 GET bo/infra/getDroits?language,
 * issue #18: "rights as labelled checkboxes from getDroits in the user's language"). The labels
 * live in the catalogues (`rights.<CODE>` and `rights.<CODE>.description`, i18n/*.json), which
 * the client screens read too, so a right is named alike everywhere.
 */
import type { Droit } from '../../contract/administration.ts';
import type { Language } from '../../contract/reports.ts';
import { RIGHTS } from '../../contract/rights.ts';
import { message } from '../i18n.ts';

/**
 * Every right of contract/rights.ts RIGHTS, in its order, with its label and description in
 * `language`.
 * @throws MissingMessageError (i18n.ts) when a right lacks its catalogue entries (a bug the
 *   tests catch).
 */
export function labelledRights(language: Language): Droit[] {
  return RIGHTS.map((code) => ({
    code,
    libelle: message(language, `rights.${code}`),
    description: message(language, `rights.${code}.description`),
  }));
}
