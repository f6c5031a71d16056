/**
 * The automatic backup's settings (issue #30, decision 0039, migration 0022): one row (`id` 1),
 * absent until first saved. The rule is in the subscriptions' words (contract/subscriptions.ts:
 * `type`, `jours`, `jour_du_mois`, `dernier_jour`, `heure`, `minute`, local to `time_zone`);
 * `folder` is a sub-folder of the backup folder ('' = the folder itself); `keep` how many
 * automatic backups are kept there.
 */
import { sql } from 'drizzle-orm';
import { boolean, check, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** auto_backup_config: the automatic backup's one row. */
export const autoBackupConfig = pgTable(
  'auto_backup_config',
  {
    id: integer('id').primaryKey().default(1),
    active: boolean('active').notNull(),
    type: text('type').notNull(),
    jours: integer('jours').array().notNull().default(sql`'{}'::integer[]`),
    jourDuMois: integer('jour_du_mois'),
    dernierJour: boolean('dernier_jour').notNull().default(false),
    heure: integer('heure').notNull(),
    minute: integer('minute').notNull().default(0),
    timeZone: text('time_zone').notNull().default('Europe/Paris'),
    folder: text('folder').notNull().default(''),
    keep: integer('keep').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('auto_backup_config_one_row', sql`${t.id} = 1`)],
);
