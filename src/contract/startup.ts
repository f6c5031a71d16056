/**
 * The guided start-up of a new installation (issue #30 "Start-up (mise en route)", screen
 * `/config/miseenroute`, decision record 0041). `GET bo/miseEnRoute/etat?id` reads which steps
 * are done, `POST bo/miseEnRoute/mailTest?id` sends a test mail through the mail queue, and
 * SPEC.md §7 `GET bo/miseEnRoute?id` marks the start-up complete, answering SPEC.md §8
 * `SuccessMiseEnRoute`, or refuses 409 `MiseEnRouteIncomplete` naming the missing steps.
 */
import { z } from 'zod';

/**
 * The steps the server checks, in the wizard's order: `societe` (a company and a site exist),
 * `motDePasse` (the caller replaced their first password), `mail` (a test mail was sent).
 */
export const STARTUP_CHECKED_STEPS = ['societe', 'motDePasse', 'mail'] as const;
export type StartupCheckedStep = (typeof STARTUP_CHECKED_STEPS)[number];

/**
 * Where the start-up stands. `etapes` says for each checked step whether it is done; `complete`
 * whether the start-up was marked complete (SuccessMiseEnRoute) and `completeLe` when (ISO 8601,
 * null before); `guider` whether a signing-in administrator is led to the wizard (an installation
 * started without the demo chain, COMPTOIR_DEMO=0, not complete yet); `societes` and `sites` count
 * what exists; `mail` says where mails go (`smtp`: SMTP_URL; `outbox`: `.eml` files shown on
 * /config/mails) and `mailEnvoyeA` the last test mail's recipient (null when none).
 */
export const StartupStateSchema = z.object({
  complete: z.boolean(),
  completeLe: z.iso.datetime({ offset: true }).nullable(),
  guider: z.boolean(),
  etapes: z.object({ societe: z.boolean(), motDePasse: z.boolean(), mail: z.boolean() }),
  societes: z.number().int().min(0),
  sites: z.number().int().min(0),
  mail: z.enum(['smtp', 'outbox']),
  mailEnvoyeA: z.string().nullable(),
});
export type StartupState = z.infer<typeof StartupStateSchema>;

/** Body of `POST bo/miseEnRoute/mailTest`: the address to send the test mail to. */
export const StartupMailTestBodySchema = z.object({
  email: z.email().max(254).describe('address the test mail goes to'),
});
export type StartupMailTestBody = z.infer<typeof StartupMailTestBodySchema>;

/** Answer of the test mail: queued (SPEC.md §8 MailEnvoye) to `recipients`, leaving by `mode`. */
export const StartupMailTestAnswerSchema = z.object({
  code: z.literal('MailEnvoye'),
  recipients: z.array(z.string()),
  mode: z.enum(['smtp', 'outbox']),
});
export type StartupMailTestAnswer = z.infer<typeof StartupMailTestAnswerSchema>;

/** Answer of `GET bo/miseEnRoute`: the start-up is complete (SPEC.md §8 SuccessMiseEnRoute). */
export const MiseEnRouteAnswerSchema = z.object({
  code: z.literal('SuccessMiseEnRoute'),
  completeLe: z.iso.datetime({ offset: true }),
});
export type MiseEnRouteAnswer = z.infer<typeof MiseEnRouteAnswerSchema>;
