/**
 * The demo chain's report e-mails (issue #28): a few rules, recipients and subscriptions, so a
 * newcomer sees runs on /config/recurrences and /abonnements and `.eml` files in
 * `DATA_DIR/mail-outbox/` (or /config/mails) without setting anything up:
 * - the area manager `responsable.brasseries`: his brasseries' sales of the past week, PDF, every
 *   Monday at 07:00, and of yesterday, PDF + XLSX, every day at a near minute (the first quarter
 *   hour at least 5 minutes after the demo's creation, Paris time), so a first run comes soon;
 * - the accountant `comptable`: the whole chain's sales of the past month, XLSX, on the 1st at 08:00.
 * Each mails its owner (a user recipient: their `<login>@example.com` address, users.ts).
 */
import { TZDate } from '@date-fns/tz';
import type pg from 'pg';

/** The zone of the demo's rules (every demo site is in it). */
const DEMO_ZONE = 'Europe/Paris';

/** One demo subscription: its owner, rule, report period and formats. */
interface DemoSubscription {
  owner: string;
  libelle: string;
  rule: {
    libelle: string;
    type: 'DAILY' | 'WEEKLY' | 'MONTHLY';
    jours?: number[];
    jour?: number;
    heure: number;
    minute: number;
  };
  periode: 'D-1' | 'W-1' | 'M-1';
  formats: ('PDF' | 'CSV' | 'XLSX')[];
}

/** The local hour and minute of the first quarter hour at least 5 minutes after `now` in Paris. */
export function nearQuarterHour(now: Date): { heure: number; minute: number } {
  const local = new TZDate(now.getTime() + 5 * 60_000, DEMO_ZONE);
  const minutes = Math.ceil((local.getHours() * 60 + local.getMinutes()) / 15) * 15;
  return { heure: Math.floor(minutes / 60) % 24, minute: minutes % 60 };
}

/** The demo's subscriptions for a chain created at `now`. */
export function demoSubscriptions(now: Date): DemoSubscription[] {
  const near = nearQuarterHour(now);
  const at = `${String(near.heure).padStart(2, '0')}:${String(near.minute).padStart(2, '0')}`;
  return [
    {
      owner: 'responsable.brasseries',
      libelle: 'Synthèse hebdomadaire — brasseries',
      rule: { libelle: 'Chaque lundi à 07:00', type: 'WEEKLY', jours: [1], heure: 7, minute: 0 },
      periode: 'W-1',
      formats: ['PDF'],
    },
    {
      owner: 'responsable.brasseries',
      libelle: 'Ventes de la veille — brasseries',
      rule: { libelle: `Tous les jours à ${at}`, type: 'DAILY', ...near },
      periode: 'D-1',
      formats: ['PDF', 'XLSX'],
    },
    {
      owner: 'comptable',
      libelle: 'Ventes du mois — toute la chaîne',
      rule: { libelle: 'Le 1er du mois à 08:00', type: 'MONTHLY', jour: 1, heure: 8, minute: 0 },
      periode: 'M-1',
      formats: ['XLSX'],
    },
  ];
}

/**
 * Creates the demo's rules, recipients and subscriptions through `client` (the demo's
 * transaction), for a chain created at `now`. An owner missing (its login taken before the demo)
 * gets none. @returns how many subscriptions were created. @throws the database's error.
 */
export async function createDemoSubscriptions(client: pg.ClientBase, now: Date): Promise<number> {
  let created = 0;
  for (const s of demoSubscriptions(now)) {
    const { rows: users } = await client.query<{ id: number }>('SELECT id FROM users WHERE login = $1', [
      s.owner,
    ]);
    const ownerId = users[0]?.id;
    if (ownerId === undefined) continue;
    const { rows: rule } = await client.query<{ id: number }>(
      `INSERT INTO report_rules (owner_id, libelle, type, week_days, month_day, hour, minute)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
      [
        ownerId,
        s.rule.libelle,
        s.rule.type,
        s.rule.jours ?? [],
        s.rule.jour ?? null,
        s.rule.heure,
        s.rule.minute,
      ],
    );
    const { rows: existing } = await client.query<{ id: number }>(
      'SELECT id FROM report_recipients WHERE owner_id = $1 AND user_id = $1',
      [ownerId],
    );
    const recipientId =
      existing[0]?.id ??
      (
        await client.query<{ id: number }>(
          `INSERT INTO report_recipients (owner_id, user_id, language) VALUES ($1, $1, 'fr') RETURNING id`,
          [ownerId],
        )
      ).rows[0]!.id;
    const report = {
      favoriId: null,
      rapportClassName: 'RapportVentes',
      typeRapport: 'Daily',
      operation: 'VENTE',
      lSites: [],
      groupements: [],
      tpv: [],
      vendeurs: [],
      periode: s.periode,
      anneePrecedente: false,
    };
    const { rows: subscription } = await client.query<{ id: number }>(
      `INSERT INTO report_subscriptions (owner_id, libelle, rule_id, report, formats, only_with_data)
       VALUES ($1, $2, $3, $4, $5, true) RETURNING id`,
      [ownerId, s.libelle, rule[0]!.id, JSON.stringify(report), s.formats],
    );
    await client.query(
      'INSERT INTO report_subscription_recipients (subscription_id, recipient_id) VALUES ($1, $2)',
      [subscription[0]!.id, recipientId],
    );
    created++;
  }
  return created;
}
