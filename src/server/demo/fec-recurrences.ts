/**
 * The demo chain's FEC recurrence (issue #29 "FEC recurrences", decision 0043): the bakery company
 * `SARL Fournil Ferrand` (the first company when it is missing) exports the previous month every
 * day one minute after a near quarter hour (nearQuarterHour: at least 5 minutes after the demo's
 * creation, Paris time; the daily report e-mail takes the quarter hour itself), mailed to the
 * accountant `comptable@example.com`. So a newcomer finds a generated file on /fec after the
 * first scheduled minute, and sees that the following days make no second file for the same
 * month (one file per recurrence and period).
 */
import type pg from 'pg';
import { nearQuarterHour } from './subscriptions.ts';

/** The company the demo recurrence exports: a company with sales in every demo day. */
const DEMO_COMPANY = 'SARL Fournil Ferrand';

/**
 * Creates the demo's FEC recurrence through `client` (the demo's transaction), for a chain created
 * at `now`. @returns how many recurrences were created (0 without any company). @throws the
 * database's error.
 */
export async function createDemoFecRecurrences(client: pg.ClientBase, now: Date): Promise<number> {
  const { rows } = await client.query<{ id: number }>(
    'SELECT id FROM companies ORDER BY raison_sociale = $1 DESC, id LIMIT 1',
    [DEMO_COMPANY],
  );
  const companyId = rows[0]?.id;
  if (companyId === undefined) return 0;
  // One minute after the demo's daily report e-mail, so each has its own minute in the outbox.
  const near = nearQuarterHour(now);
  const heure = near.heure;
  const minute = near.minute + 1;
  await client.query(
    `INSERT INTO fec_recurrences (company_id, libelle, type, hour, minute, period, recipients, language)
     VALUES ($1, 'FEC du mois précédent', 'DAILY', $2, $3, 'PREVIOUS_MONTH', $4, 'fr')`,
    [companyId, heure, minute, ['comptable@example.com']],
  );
  return 1;
}
