/**
 * The company form's own checks, run as the user types (issue #18: "SIREN/SIRET validated
 * live"): SIREN 9 digits, SIRET 14 digits whose first nine are the SIREN when both are given, a
 * raison sociale (SPEC.md §5 "no field may be empty"). The server checks the same
 * (administration.ts SocieteInputSchema, `InvalidField`); these spare a round trip and say which
 * field is wrong. Spaces typed to group digits ("123 456 789") are allowed and dropped.
 */

/** The company form as typed. */
export interface CompanyDraft {
  raisonSociale: string;
  enseigne: string;
  siren: string;
  siret: string;
  codeLicence: string;
  codeImplant: string;
}

export type CompanyField = keyof CompanyDraft;

/** Why a field is refused; message id `sitesAdmin.company.error.<code>`. */
export type CompanyProblem = 'required' | 'sirenDigits' | 'siretDigits' | 'siretNotSiren' | 'tooLong';

/** Digits typed with spaces (or dots) between groups → the digits alone. */
export function compactNumber(text: string): string {
  return text.replace(/[\s.]/g, '');
}

/** Longest administrator text, as the contract allows (administration.ts `Name`). */
export const TEXT_MAX = 200;

/**
 * Problems of `draft`, per field (absent: fine). `siretNotSiren` is given only when both numbers
 * are well formed, so the user fixes one thing at a time.
 */
export function companyProblems(draft: CompanyDraft): Partial<Record<CompanyField, CompanyProblem>> {
  const out: Partial<Record<CompanyField, CompanyProblem>> = {};
  if (draft.raisonSociale.trim() === '') out.raisonSociale = 'required';
  for (const f of ['raisonSociale', 'enseigne', 'codeLicence', 'codeImplant'] as const) {
    if (draft[f].trim().length > TEXT_MAX) out[f] = 'tooLong';
  }
  const siren = compactNumber(draft.siren);
  const siret = compactNumber(draft.siret);
  if (siren !== '' && !/^\d{9}$/.test(siren)) out.siren = 'sirenDigits';
  if (siret !== '' && !/^\d{14}$/.test(siret)) out.siret = 'siretDigits';
  if (!out.siren && !out.siret && siren !== '' && siret !== '' && !siret.startsWith(siren)) {
    out.siret = 'siretNotSiren';
  }
  return out;
}

/**
 * Whether a problem is worth showing while the user is still typing in that field: a character
 * that can never fit (a letter in a SIREN) or too many digits shows at once; "too few digits"
 * and "required" wait until the field is left or the form is submitted.
 */
export function showsWhileTyping(field: CompanyField, draft: CompanyDraft): boolean {
  const text = compactNumber(draft[field]);
  if (field === 'siren') return /\D/.test(text) || text.length > 9;
  if (field === 'siret')
    return /\D/.test(text) || text.length > 14 || (text.length === 14 && /^\d+$/.test(text));
  return draft[field].trim().length > TEXT_MAX;
}

/** The body of newSociete / saveSociete for a draft without problems. */
export function companyInput(draft: CompanyDraft) {
  return {
    raisonSociale: draft.raisonSociale.trim(),
    enseigne: draft.enseigne.trim(),
    siren: compactNumber(draft.siren),
    siret: compactNumber(draft.siret),
    codeLicence: draft.codeLicence.trim(),
    codeImplant: draft.codeImplant.trim(),
  };
}
