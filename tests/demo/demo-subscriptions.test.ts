/**
 * The demo chain's report e-mails (issue #28, src/server/demo/subscriptions.ts): the area
 * manager's weekly and daily subscriptions and the accountant's monthly one exist, each mailing
 * its owner; the daily one fires at the first quarter hour at least 5 minutes after the demo's
 * creation (Paris time), and without SMTP_URL its mail lands as an `.eml` in DATA_DIR/mail-outbox.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemoChain } from '../../src/server/demo/generate.ts';
import { nearQuarterHour } from '../../src/server/demo/subscriptions.ts';
import { listRuns } from '../../src/server/jobs/run-records.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { waitForMailQueue } from '../helpers/smtp.ts';
import { waitUntil } from '../server/jobs/queue-helpers.ts';

/** 15:37 in Paris: the daily run is at 15:45 (14:45 UTC). */
const NOW = new Date('2026-03-18T14:37:00Z');

let t: TestApp;
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'comptoir-demo-subs-'));
  t = await createTestApp({ config: { dataDir } });
  await generateDemoChain(t.database.pool, { seed: 7, now: NOW, days: 2 });
}, 120_000);
afterAll(async () => {
  await t?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('the demo’s report e-mails', () => {
  it('the first quarter hour at least 5 minutes ahead, Paris time', () => {
    expect(nearQuarterHour(NOW)).toEqual({ heure: 15, minute: 45 });
    expect(nearQuarterHour(new Date('2026-03-18T14:40:00Z'))).toEqual({ heure: 15, minute: 45 });
    expect(nearQuarterHour(new Date('2026-03-18T14:41:00Z'))).toEqual({ heure: 16, minute: 0 });
    expect(nearQuarterHour(new Date('2026-03-18T22:56:00Z'))).toEqual({ heure: 0, minute: 15 });
  });

  it('three subscriptions, each mailing its owner, on their rules', async () => {
    const { rows } = await t.database.pool.query(
      `SELECT u.login, s.libelle, s.formats, s.report->>'periode' AS periode, r.type, r.hour, r.minute,
              r.week_days AS jours, r.month_day AS jour, coalesce(ru.email, rr.email) AS adresse
         FROM report_subscriptions s
         JOIN users u ON u.id = s.owner_id
         JOIN report_rules r ON r.id = s.rule_id
         JOIN report_subscription_recipients sr ON sr.subscription_id = s.id
         JOIN report_recipients rr ON rr.id = sr.recipient_id
         LEFT JOIN users ru ON ru.id = rr.user_id
        ORDER BY s.id`,
    );
    expect(rows).toEqual([
      {
        login: 'responsable.brasseries',
        libelle: 'Synthèse hebdomadaire — brasseries',
        formats: ['PDF'],
        periode: 'W-1',
        type: 'WEEKLY',
        hour: 7,
        minute: 0,
        jours: [1],
        jour: null,
        adresse: 'responsable.brasseries@example.com',
      },
      {
        login: 'responsable.brasseries',
        libelle: 'Ventes de la veille — brasseries',
        formats: ['PDF', 'XLSX'],
        periode: 'D-1',
        type: 'DAILY',
        hour: 15,
        minute: 45,
        jours: [],
        jour: null,
        adresse: 'responsable.brasseries@example.com',
      },
      {
        login: 'comptable',
        libelle: 'Ventes du mois — toute la chaîne',
        formats: ['XLSX'],
        periode: 'M-1',
        type: 'MONTHLY',
        hour: 8,
        minute: 0,
        jours: [],
        jour: 1,
        adresse: 'comptable@example.com',
      },
    ]);
  });

  it('the daily one runs at its minute and leaves an .eml with its files in the outbox', async () => {
    await t.app.jobs.tick(new Date('2026-03-18T14:45:10Z'));
    const [run] = await listRuns(t.database.pool, { kind: 'subscription.run' });
    expect(run?.plannedAt.toISOString()).toBe('2026-03-18T14:45:00.000Z');
    await waitUntil(
      async () => (await listRuns(t.database.pool, { kind: 'subscription.run' }))[0]!.status === 'succeeded',
      60_000,
    );
    await waitForMailQueue(t.database.pool);
    const outbox = path.join(dataDir, 'mail-outbox');
    const files = (await readdir(outbox)).filter((f) => f.endsWith('.eml'));
    expect(files).toHaveLength(1);
    const eml = await readFile(path.join(outbox, files[0]!), 'utf8');
    expect(eml).toContain('To: responsable.brasseries@example.com');
    expect(eml).toMatch(/filename=.*\.pdf/);
    expect(eml).toMatch(/filename=.*\.xlsx/);
  }, 120_000);
});
