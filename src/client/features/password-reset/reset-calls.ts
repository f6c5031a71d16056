/**
 * Calls of the password reset by e-mail (SPEC.md §7 reinit/*; shapes in
 * contract/administration.ts). Both are public: no session is needed or sent. The new password
 * goes in the POST's body, never in a URL.
 */
import { ReinitAnswerSchema } from '../../../contract/administration.ts';
import { http, toApiFailure } from '../../lib/http.ts';

/**
 * GET reinit/sendReinitMail?user: mails a reset link to the user named by login or e-mail.
 * @throws ApiFailure `userNull` (404) for an unknown user, `ErreurEnvoiMail`, `TooManyRequests`,
 *   `Network Error`…
 */
export async function sendResetLink(user: string): Promise<void> {
  try {
    const answer = await http.get('reinit/sendReinitMail', { searchParams: { user } }).json<unknown>();
    ReinitAnswerSchema.parse(answer);
  } catch (e) {
    throw toApiFailure(e);
  }
}

/** What the reset link carries and the new password chosen. */
export interface NewPasswordByLink {
  email: string;
  key: string;
  password: string;
}

/**
 * POST reinit/reinitPassword: sets the password with the link's e-mail and key.
 * @throws ApiFailure `expiredToken` / `usedToken` (the link cannot be used), `PasswordPolicy`
 *   (with `details.problems`), `TooManyRequests`, `Network Error`…
 */
export async function setPasswordByLink(fields: NewPasswordByLink): Promise<void> {
  try {
    await http
      .post('reinit/reinitPassword', {
        json: { email: fields.email, resetPasswordKey: fields.key, password: fields.password },
      })
      .json<unknown>();
  } catch (e) {
    throw toApiFailure(e);
  }
}
