/**
 * Wire shape of `GET bo/attention?id` (issues #29 and #30, decision 0045): the scheduled work
 * that ended failed after its retries and has not succeeded since, for the "Needs attention"
 * card of /home. Which kinds a user gets, and why a run failed, are in attention-kinds.ts.
 */
import { z } from 'zod';
import { ATTENTION_KINDS, ATTENTION_REASONS } from './attention-kinds.ts';
import { PARTNERS } from './integrations.ts';

/**
 * One thing that needs attention. `quand` is when its last try ended (ISO 8601 UTC; for a
 * suspended subscription, when it was last saved); `ecran` the path of the screen that shows it
 * and can retry it (e.g. `/config/bdd`, `/config/ecash`).
 */
export const AttentionItemSchema = z.object({
  type: z.enum(ATTENTION_KINDS),
  libelle: z
    .string()
    .nullable()
    .describe('the name of the FEC recurrence or subscription; null for the backup and the integrations'),
  partenaire: z.enum(PARTNERS).nullable().describe('the partner of an integration, else null'),
  quand: z.string().describe('ISO 8601 instant the last try ended'),
  raison: z.enum(ATTENTION_REASONS).describe('why it failed, as a code the screen translates'),
  statutHttp: z
    .number()
    .int()
    .nullable()
    .describe('the HTTP status a partner endpoint answered (raison Http or Refused), else null'),
  tentatives: z.number().int().min(0).describe('tries made by the failed run'),
  ecran: z.string().describe('the screen that shows it and can retry it'),
});
/** One line of the card. */
export type AttentionItem = z.infer<typeof AttentionItemSchema>;

/** `GET bo/attention` answer: the caller's lines, newest failure first. */
export const AttentionAnswerSchema = z.object({ elements: z.array(AttentionItemSchema) });
/** `GET bo/attention` answer. */
export type AttentionAnswer = z.infer<typeof AttentionAnswerSchema>;
