/**
 * The `newAnomaly` alert (issue #28 "Alerts", alerts/findings.ts newAnomalies) on the chain of
 * tests/server/anomalies-fixture.ts, against the real SMTP server: seller V03 (Chloé Durand) of
 * Paris Bastille first stands out for cancellations over the 28 days ending 24 March 2026 (the
 * other planted anomalies already did the day before), so the check of 25 March at 07:00 mails
 * it once, with a link to /anomalies on that site and period; the next day finds nothing new;
 * a recipient who is a user without RAPPORTS_ANOMALIES or without the site gets nothing.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkAlert } from '../../../src/server/alerts/check.ts';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { testJobContext } from '../../helpers/job-context.ts';
import { openTestMailbox, type TestMailbox } from '../../helpers/smtp.ts';
import { loadAnomalyChain } from '../anomalies-fixture.ts';

const PUBLIC_URL = 'https://bo.example.test';
const PASSWORD = 'Secret-Password-1';
const PARIS = 1;
const LYON = 2;
/** 07:00 in Paris on 25 March 2026: the day checked is 24 March. */
const PLANNED = new Date('2026-03-25T06:00:00Z');
const NEXT_DAY = new Date('2026-03-26T06:00:00Z');

let t: TestApp;
let mailbox: TestMailbox;
let serial = 0;

beforeAll(async () => {
  mailbox = await openTestMailbox();
  t = await createTestApp({ config: { smtpUrl: mailbox.url, publicUrl: PUBLIC_URL } });
  await loadAnomalyChain(t.database);
}, 120_000);
afterEach(() => mailbox.reset());
afterAll(async () => {
  await t.close();
  await mailbox.close();
});

const one = async (text: string, values: unknown[]) =>
  (await t.database.pool.query<{ id: number }>(text, values)).rows[0]!.id;

/** A new user holding `droits` on `sites`, with `email`. */
async function user(droits: string[], sites: number[], email: string): Promise<number> {
  serial += 1;
  const id = await t.createUser({
    login: `veille${serial}`,
    password: PASSWORD,
    droits,
    restaurantIds: sites,
  });
  await t.database.pool.query('UPDATE users SET email = $2 WHERE id = $1', [id, email]);
  return id;
}

/**
 * An alert `newAnomaly` of `owner` on `sites` at 07:00 daily, sent to `recipients`: a plain
 * address (with its language) or a user id (in French).
 */
async function anomalyAlert(
  owner: number,
  sites: number[],
  recipients: ({ email: string; language: string } | { userId: number })[],
) {
  const rule = await one(
    `INSERT INTO report_rules (owner_id, libelle, type, hour, minute) VALUES ($1, '7 h', 'DAILY', 7, 0) RETURNING id`,
    [owner],
  );
  const alert = await one(
    `INSERT INTO alerts (owner_id, libelle, kind, sites, rule_id) VALUES ($1, $2, 'newAnomaly', $3, $4) RETURNING id`,
    [owner, `Veille ${serial}`, sites, rule],
  );
  for (const r of recipients) {
    const recipient =
      'userId' in r
        ? await one(
            `INSERT INTO report_recipients (owner_id, user_id, language) VALUES ($1, $2, 'fr') RETURNING id`,
            [owner, r.userId],
          )
        : await one(
            'INSERT INTO report_recipients (owner_id, email, language) VALUES ($1, $2, $3) RETURNING id',
            [owner, r.email, r.language],
          );
    await t.database.pool.query('INSERT INTO alert_recipients (alert_id, recipient_id) VALUES ($1, $2)', [
      alert,
      recipient,
    ]);
  }
  return alert;
}

const received = (address: string) =>
  mailbox.received.filter((m) => (m.to as { text: string }).text === address);

describe('newAnomaly', () => {
  it('mails an anomaly newly found, once, with a link to /anomalies on its site and period; the next day finds nothing new', async () => {
    const owner = await user(['RAPPORTS_ANOMALIES'], [PARIS, LYON], 'owner@example.com');
    const alert = await anomalyAlert(
      owner,
      [PARIS, LYON],
      [
        { email: 'direction@example.com', language: 'fr' },
        { email: 'boss@example.com', language: 'en' },
      ],
    );
    const ctx = testJobContext(t.database.pool, mailbox, PLANNED);
    try {
      const mails = await checkAlert(
        { publicUrl: PUBLIC_URL },
        { alertId: alert, plannedAt: PLANNED.toISOString() },
        ctx,
      );
      expect(mails).toBe(2);
      expect(mailbox.received).toHaveLength(2);
      const fr = received('direction@example.com')[0]!;
      expect(fr.subject).toBe(`Veille ${serial} — nouvelle anomalie à Paris Bastille le 24/03/2026`);
      expect(fr.text).toContain(
        'Paris Bastille : 1 nouvelle anomalie sur la période du 25/02/2026 au 24/03/2026',
      );
      expect(fr.text).toContain('Chloé Durand (vendeur, Paris Bastille) : annulations');
      // Already seen over the period ending the day before: not new.
      expect(fr.text).not.toContain('Emma Laurent');
      const link = `${PUBLIC_URL}/anomalies?site=${PARIS}&dateDebut=2026-02-25&dateFin=2026-03-24`;
      expect(fr.text).toContain(link);
      expect(fr.html).toContain(`href="${link.replaceAll('&', '&amp;')}"`);
      const en = received('boss@example.com')[0]!;
      expect(en.subject).toBe(`Veille ${serial} — new anomaly at Paris Bastille on 24/03/2026`);
      expect(en.text).toContain('1 new anomaly over 25/02/2026 to 24/03/2026');

      // The same check again (a retry, "check now"): the day's mail is not sent twice.
      await checkAlert({ publicUrl: PUBLIC_URL }, { alertId: alert, plannedAt: PLANNED.toISOString() }, ctx);
      expect(mailbox.received).toHaveLength(2);

      // The next morning: the same anomalies, none new.
      const next = await checkAlert(
        { publicUrl: PUBLIC_URL },
        { alertId: alert, plannedAt: NEXT_DAY.toISOString() },
        ctx,
      );
      expect(next).toBe(0);
      expect(mailbox.received).toHaveLength(2);
    } finally {
      ctx.close();
    }
  });

  it('sends nothing to a user recipient without RAPPORTS_ANOMALIES or without the site', async () => {
    const owner = await user(['RAPPORTS_ANOMALIES'], [PARIS, LYON], 'owner2@example.com');
    const allowed = await user(['RAPPORTS_ANOMALIES'], [PARIS], 'allowed@example.com');
    const noRight = await user(['RAPPORTS'], [PARIS], 'noright@example.com');
    const otherSite = await user(['RAPPORTS_ANOMALIES'], [LYON], 'lyon@example.com');
    const alert = await anomalyAlert(
      owner,
      [PARIS],
      [{ userId: allowed }, { userId: noRight }, { userId: otherSite }],
    );
    const ctx = testJobContext(t.database.pool, mailbox, PLANNED);
    try {
      const mails = await checkAlert(
        { publicUrl: PUBLIC_URL },
        { alertId: alert, plannedAt: PLANNED.toISOString() },
        ctx,
      );
      expect(mails).toBe(1);
      expect(mailbox.received.map((m) => (m.to as { text: string }).text)).toEqual(['allowed@example.com']);
    } finally {
      ctx.close();
    }
  });

  it('checks nothing for a site without new anomalies, nor for an owner without RAPPORTS_ANOMALIES', async () => {
    const lyonOwner = await user(['RAPPORTS_ANOMALIES'], [LYON], 'owner3@example.com');
    const lyonAlert = await anomalyAlert(
      lyonOwner,
      [LYON],
      [{ email: 'lyon-direction@example.com', language: 'fr' }],
    );
    const reportsOnly = await user(['RAPPORTS'], [PARIS], 'owner4@example.com');
    const parisAlert = await anomalyAlert(
      reportsOnly,
      [PARIS],
      [{ email: 'paris@example.com', language: 'fr' }],
    );
    const ctx = testJobContext(t.database.pool, mailbox, PLANNED);
    try {
      for (const alertId of [lyonAlert, parisAlert]) {
        expect(
          await checkAlert({ publicUrl: PUBLIC_URL }, { alertId, plannedAt: PLANNED.toISOString() }, ctx),
        ).toBe(0);
      }
      expect(mailbox.received).toHaveLength(0);
    } finally {
      ctx.close();
    }
  });
});
