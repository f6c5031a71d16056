/**
 * Password policy of SPEC.md §5 / §9: at least 10 characters, one upper-case letter, one
 * lower-case letter, one digit and one special character. Used by the server (user creation,
 * password change, generated admin password) and by the client forms.
 */

/** Minimum length, SPEC.md §9. */
export const PASSWORD_MIN_LENGTH = 10;

/** What a password lacks, as i18n message ids (`password.tooShort`, …); empty when it is valid. */
export type PasswordProblem = 'tooShort' | 'noUpper' | 'noLower' | 'noDigit' | 'noSpecial';

/**
 * Checks a password against the policy.
 * @returns the list of problems, empty when the password is acceptable.
 */
export function passwordProblems(password: string): PasswordProblem[] {
  const problems: PasswordProblem[] = [];
  if ([...password].length < PASSWORD_MIN_LENGTH) problems.push('tooShort');
  if (!/\p{Lu}/u.test(password)) problems.push('noUpper');
  if (!/\p{Ll}/u.test(password)) problems.push('noLower');
  if (!/\p{Nd}/u.test(password)) problems.push('noDigit');
  if (!/[^\p{L}\p{Nd}\s]/u.test(password)) problems.push('noSpecial');
  return problems;
}
