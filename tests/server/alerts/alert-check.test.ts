/**
 * Alert checks (issue #28 "Alerts") on a real PostgreSQL, mailing through the real SMTP server:
 * each kind mails when something needs a person and stays silent otherwise (a count present, a
 * day inside the forecast's range), two checks of one day mail once, an owner who lost a site
 * gets no alert of it, and the due source finds a check at its rule's minute. Time is given
 * (`plannedAt`), never slept.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkAlert } from '../../../src/server/alerts/check.ts';
import { dueAlerts } from '../../../src/server/alerts/due.ts';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { testJobContext } from '../../helpers/job-context.ts';
import { openTestMailbox, type TestMailbox } from '../../helpers/smtp.ts';
import { type Chain, seedChain } from '../fixtures.ts';

const PUBLIC_URL = 'https://bo.example.test';
const PASSWORD = 'Secret-Password-1';
/** 07:00 in Paris on 6 March 2026: the last closed fiscal day is 5 March. */
const PLANNED = new Date('2026-03-06T06:00:00Z');
const DAY = '2026-03-05';

let t: TestApp;
let mailbox: TestMailbox;
let chain: Chain;
let serial = 0;

beforeAll(async () => {
  mailbox = await openTestMailbox();
  t = await createTestApp({ config: { smtpUrl: mailbox.url, publicUrl: PUBLIC_URL } });
  chain = await seedChain(t.database.pool);
});
afterEach(() => mailbox.reset());
afterAll(async () => {
  await t.close();
  await mailbox.close();
});

/** A new owner holding `droits` on `sites`, and their alert of `kind` on `sites` at 07:00 daily. */
async function ownerAlert(
  kind: string,
  sites: number[],
  emails = ['direction@example.com'],
  droits = ['RAPPORTS'],
) {
  serial += 1;
  const owner = await t.createUser({
    login: `veilleur${serial}`,
    password: PASSWORD,
    droits,
    restaurantIds: sites,
  });
  const pool = t.database.pool;
  const one = async (text: string, values: unknown[]) =>
    (await pool.query<{ id: number }>(text, values)).rows[0]!.id;
  const rule = await one(
    `INSERT INTO report_rules (owner_id, libelle, type, hour, minute) VALUES ($1, '7 h', 'DAILY', 7, 0) RETURNING id`,
    [owner],
  );
  const alert = await one(
    `INSERT INTO alerts (owner_id, libelle, kind, sites, rule_id) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
    [owner, `Alerte ${serial}`, kind, sites, rule],
  );
  for (const [i, email] of emails.entries()) {
    const recipient = await one(
      `INSERT INTO report_recipients (owner_id, email, language) VALUES ($1, $2, $3) RETURNING id`,
      [owner, email, i === 0 ? 'fr' : 'en'],
    );
    await pool.query('INSERT INTO alert_recipients (alert_id, recipient_id) VALUES ($1, $2)', [
      alert,
      recipient,
    ]);
  }
  return { owner, alert };
}

/** Checks `alertId` at `plannedAt` as the queue would; `ctx` may be kept to check twice. */
async function check(
  alertId: number,
  plannedAt = PLANNED,
  ctx = testJobContext(t.database.pool, mailbox, plannedAt),
) {
  const mails = await checkAlert(
    { publicUrl: PUBLIC_URL },
    { alertId, plannedAt: plannedAt.toISOString() },
    ctx,
  );
  return { mails, ctx };
}

/** Terminal `terminal` of `site` sold on `day`. */
async function sold(site: number, terminal: number, day = DAY) {
  await t.database.pool.query(
    `INSERT INTO daily_terminal_sales (site_id, fiscal_date, terminal_id, tickets, net_cents, net_excl_cents)
     VALUES ($1, $2, $3, 3, 4500, 3750)`,
    [site, day, terminal],
  );
}

async function cashCounted(site: number, terminal: number, day = DAY) {
  await t.database.pool.query(
    `INSERT INTO cash_counts (site_id, fiscal_date, terminal_id, version, cash_cents, expected_cash_cents,
       expected_cheques_cents, expected_meal_vouchers_cents, expected_card_slips_cents, counted_by,
       counted_by_login, counted_at)
     VALUES ($1, $2, $3, 1, 4500, 4500, 0, 0, 0, 1, 'someone', now())`,
    [site, day, terminal],
  );
}

async function safeCounted(site: number, day = DAY) {
  await t.database.pool.query(
    `INSERT INTO safe_counts (site_id, fiscal_date, version, opening_cents, deposits_cents, withdrawals_cents,
       contents, counted_cents, counted_by, counted_by_login, counted_at)
     VALUES ($1, $2, 1, 4000, 1000, 200, '[]', 4800, 1, 'someone', now())`,
    [site, day],
  );
}

describe('countMissing', () => {
  it('mails which count is missing, with a link to the counting screen, and stays silent once counted', async () => {
    const { alert } = await ownerAlert('countMissing', [chain.sites.paris]);
    await sold(chain.sites.paris, 1);
    await sold(chain.sites.paris, 2);
    await cashCounted(chain.sites.paris, 1);
    await safeCounted(chain.sites.paris);

    const first = await check(alert);
    first.ctx.close();
    expect(first.mails).toBe(1);
    expect(mailbox.received).toHaveLength(1);
    const mail = mailbox.received[0]!;
    expect(mail.to).toMatchObject({ value: [{ address: 'direction@example.com' }] });
    expect(mail.subject).toBe('Alerte 1 — comptage manquant à Paris le 05/03/2026');
    expect(mail.text).toContain(
      'Paris, journée du 05/03/2026 : le comptage de caisse manque pour la caisse 2.',
    );
    expect(mail.text).not.toContain('coffre');
    expect(mail.text).toContain(`${PUBLIC_URL}/analyses/comptageCaisses/saisie`);
    expect(mail.html).toContain(`href="${PUBLIC_URL}/analyses/comptageCaisses/saisie"`);

    mailbox.reset();
    await cashCounted(chain.sites.paris, 2);
    const second = await check(alert);
    second.ctx.close();
    expect(second.mails).toBe(0);
    expect(mailbox.received).toHaveLength(0);
  });

  it('mails a missing safe count in each recipient’s language, linking to the safe screen', async () => {
    const { alert } = await ownerAlert(
      'countMissing',
      [chain.sites.nantes],
      ['gerant@example.com', 'boss@example.com'],
    );
    await sold(chain.sites.nantes, 1);
    await cashCounted(chain.sites.nantes, 1);
    const { mails, ctx } = await check(alert);
    ctx.close();
    expect(mails).toBe(2);
    const byAddress = new Map(mailbox.received.map((m) => [(m.to as { text: string }).text, m]));
    expect(byAddress.get('gerant@example.com')?.text).toContain(
      'Nantes, journée du 05/03/2026 : le comptage du coffre manque.',
    );
    expect(byAddress.get('boss@example.com')?.text).toContain(
      'Nantes, business day 05/03/2026: the safe count is missing.',
    );
    expect(byAddress.get('boss@example.com')?.text).toContain(`${PUBLIC_URL}/analyses/coffre`);
  });

  it('sends nothing for a day without sales', async () => {
    const { alert } = await ownerAlert('countMissing', [chain.sites.lyon]);
    const { mails, ctx } = await check(alert);
    ctx.close();
    expect(mails).toBe(0);
    expect(mailbox.received).toHaveLength(0);
  });

  it('sends one mail per site and day whatever the number of checks', async () => {
    const { alert } = await ownerAlert('countMissing', [chain.sites.lille]);
    await sold(chain.sites.lille, 1);
    const ctx = testJobContext(t.database.pool, mailbox, PLANNED);
    try {
      await check(alert, PLANNED, ctx);
      // A second check the same morning (another occurrence, a retry, "check now").
      await check(alert, new Date(PLANNED.getTime() + 3_600_000), ctx);
      expect(mailbox.received).toHaveLength(1);
      // The next morning is another fiscal day: a new alert if its counts are missing.
      await sold(chain.sites.lille, 1, '2026-03-06');
      await check(alert, new Date(PLANNED.getTime() + 86_400_000), ctx);
      expect(mailbox.received).toHaveLength(2);
      expect(mailbox.received[1]!.subject).toContain('06/03/2026');
    } finally {
      ctx.close();
    }
  });

  it('checks only the sites still within the owner’s scope', async () => {
    const { owner, alert } = await ownerAlert('countMissing', [chain.sites.paris, chain.sites.nantes]);
    // Both have a count missing on 5 March (earlier tests): Paris's safe count is there, its terminal 2 counted now.
    await sold(chain.sites.paris, 3);
    const before = await check(alert, PLANNED, testJobContext(t.database.pool, mailbox, PLANNED));
    before.ctx.close();
    expect(mailbox.received.map((m) => m.subject).sort()).toEqual([
      `Alerte ${serial} — comptage manquant à Nantes le 05/03/2026`,
      `Alerte ${serial} — comptage manquant à Paris le 05/03/2026`,
    ]);
    mailbox.reset();
    await t.database.pool.query(
      'UPDATE profiles SET restaurant_ids = $1 WHERE id = (SELECT profile_id FROM users WHERE id = $2)',
      [[chain.sites.paris], owner],
    );
    const after = await check(alert, PLANNED, testJobContext(t.database.pool, mailbox, PLANNED));
    after.ctx.close();
    expect(mailbox.received.map((m) => m.subject)).toEqual([
      `Alerte ${serial} — comptage manquant à Paris le 05/03/2026`,
    ]);
  });

  it('checks nothing when the owner no longer holds the kind’s right', async () => {
    const { alert } = await ownerAlert('countMissing', [chain.sites.nantes], ['x@example.com'], ['COMPTAGE']);
    const { mails, ctx } = await check(alert);
    ctx.close();
    expect(mails).toBe(0);
  });
});

/** A new site of Alpha with 84 days of steady sales before 5 March 2026 (weekday pattern) and `onDay` cents on it. */
async function forecastSite(libelle: string, onDay: number): Promise<number> {
  const pool = t.database.pool;
  const { rows } = await pool.query<{ id: number }>(
    'INSERT INTO sites (libelle, company_id) VALUES ($1, $2) RETURNING id',
    [libelle, chain.companies.alpha],
  );
  const site = rows[0]!.id;
  await pool.query(
    `INSERT INTO daily_sales (site_id, fiscal_date, tickets, net_cents, net_excl_cents, tax_cents)
     SELECT $1::int, d::date, 100, n, n * 5 / 6, n - n * 5 / 6
       FROM generate_series(date '2026-03-05' - 84, date '2026-03-04', interval '1 day') AS d,
            LATERAL (SELECT (100000 + 10000 * extract(isodow FROM d)::int + 500 * (extract(day FROM d)::int % 3))::bigint AS n) AS x
     UNION ALL SELECT $1::int, date '2026-03-05', 100, $2::bigint, $2::bigint * 5 / 6, $2::bigint - $2::bigint * 5 / 6`,
    [site, onDay],
  );
  return site;
}

describe('dayOutsideForecast', () => {
  it('mails a day whose sales fell outside the 80 % range of the forecast made the day before', async () => {
    // 5 March 2026 is a Thursday: about 1 400 € expected; 3 000 € is far above the range.
    const site = await forecastSite('Bordeaux', 300_000);
    const { alert } = await ownerAlert('dayOutsideForecast', [site]);
    const { mails, ctx } = await check(alert);
    ctx.close();
    expect(mails).toBe(1);
    const mail = mailbox.received[0]!;
    expect(mail.subject).toBe(`Alerte ${serial} — ventes hors prévision à Bordeaux le 05/03/2026`);
    expect(mail.text).toMatch(
      /^Bordeaux, journée du 05\/03\/2026 : les ventes nettes de 3\u202f000,00\s€ dépassent la fourchette à 80 % de la prévision \(1\u202f\d{3},\d{2}\s€ – 1\u202f\d{3},\d{2}\s€, prévision 1\u202f\d{3},\d{2}\s€\)\.$/m,
    );
    expect(mail.html).toContain(`href="${PUBLIC_URL}/home"`);
  });

  it('sends nothing for a day inside the range', async () => {
    const site = await forecastSite('Toulouse', 140_000);
    const { alert } = await ownerAlert('dayOutsideForecast', [site]);
    const { mails, ctx } = await check(alert);
    ctx.close();
    expect(mails).toBe(0);
    expect(mailbox.received).toHaveLength(0);
  });
});

describe('the alerts due source', () => {
  it('queues a check at the rule’s minute in the sites’ time zone, once per minute', async () => {
    const { alert } = await ownerAlert('countMissing', [chain.sites.paris]);
    const items = await dueAlerts(
      t.database.pool,
      new Date('2026-03-06T05:59:00Z'),
      new Date('2026-03-06T06:00:00Z'),
    );
    const mine = items.filter((i) => i.data.alertId === alert);
    expect(mine).toEqual([
      {
        kind: 'alert.check',
        data: { alertId: alert, plannedAt: '2026-03-06T06:00:00.000Z' },
        plannedAt: new Date('2026-03-06T06:00:00Z'),
        singletonKey: `alert:${alert}:2026-03-06T06:00:00.000Z`,
      },
    ]);
    const later = await dueAlerts(
      t.database.pool,
      new Date('2026-03-06T06:00:00Z'),
      new Date('2026-03-06T06:01:00Z'),
    );
    expect(later.filter((i) => i.data.alertId === alert)).toEqual([]);
  });
});
