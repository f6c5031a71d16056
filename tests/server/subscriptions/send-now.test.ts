/**
 * "Send now" is bounded (issue #28 leftovers, subscriptions/send-now.ts, decision 0031): one
 * waiting send per subscription (409 SendNowPending, also for two requests at the same instant),
 * and {@link SEND_NOW_PER_HOUR} sends now per user in the hour (429 SendNowLimit with how long
 * to wait); another user keeps their own allowance. On a real PostgreSQL, with an instance that
 * only queues (COMPTOIR_JOBS=0), so a queued send stays queued until the test ends it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEND_NOW_PER_HOUR } from '../../../src/server/subscriptions/send-now.ts';
import { type AuthHeaders, createTestApp, type TestApp } from '../../helpers/app.ts';
import { type Chain, seedChain } from '../fixtures.ts';

let t: TestApp;
let chain: Chain;
const users = { alice: 0, bob: 0 };
const auth: Record<keyof typeof users, AuthHeaders> = { alice: {}, bob: {} };

beforeAll(async () => {
  t = await createTestApp({ config: { jobs: false } });
  chain = await seedChain(t.database.pool);
  for (const name of Object.keys(users) as (keyof typeof users)[]) {
    users[name] = await t.createUser({
      login: name,
      password: `Pw-${name}-secret-1`,
      droits: ['RAPPORTS'],
      restaurantIds: [chain.sites.paris],
    });
    auth[name] = await t.signIn(name, `Pw-${name}-secret-1`);
  }
});
afterAll(async () => t.close());

async function call(who: keyof typeof users, path: string, payload?: object) {
  const sep = path.includes('?') ? '&' : '?';
  return t.app.inject({
    method: 'POST',
    url: `/api/bo/recurrences/${path}${sep}id=${users[who]}`,
    headers: auth[who],
    ...(payload ? { payload } : {}),
  });
}

/** A new subscription of `who`. */
async function subscription(who: keyof typeof users): Promise<number> {
  const rule = await call(who, 'regles/save', { libelle: 'Matin', type: 'DAILY', heure: 6, minute: 0 });
  const recipient = await call(who, 'destinataires/save', { email: `${who}@example.com`, langue: 'fr' });
  const sub = await call(who, 'abonnements/save', {
    libelle: 'Ventes',
    rapport: { lSites: [chain.sites.paris], periode: 'D-1' },
    formats: ['CSV'],
    regleId: rule.json().id,
    destinataires: [recipient.json().id],
  });
  expect(sub.statusCode, sub.body).toBe(200);
  return sub.json().id;
}

const sendNow = (who: keyof typeof users, id: number) => call(who, `abonnements/send?abonnementId=${id}`);

/** Every queued run ends, as a worker would have ended it. */
async function runsEnd() {
  await t.database.pool.query(
    "UPDATE job_runs SET status = 'succeeded', ended_at = now() WHERE status IN ('queued', 'running', 'retrying')",
  );
}

describe('send now', () => {
  it('queues one send of a subscription at a time, even for two requests at the same instant', async () => {
    const id = await subscription('alice');
    const both = await Promise.all([sendNow('alice', id), sendNow('alice', id)]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(both.find((r) => r.statusCode === 409)!.json()).toMatchObject({ code: 'SendNowPending' });
    expect((await sendNow('alice', id)).json()).toMatchObject({ code: 'SendNowPending' });
    // Another subscription is not held up by this one.
    const other = await subscription('alice');
    expect((await sendNow('alice', other)).statusCode).toBe(200);
    await runsEnd();
    expect((await sendNow('alice', id)).statusCode).toBe(200);
    await runsEnd();
    const { rows } = await t.database.pool.query(
      "SELECT count(*)::int AS n FROM audit_log WHERE user_id = $1 AND action = 'subscription.send'",
      [users.alice],
    );
    expect(rows[0].n).toBe(3);
  });

  it(`allows ${SEND_NOW_PER_HOUR} sends now per user in the hour, then says how long to wait`, async () => {
    const id = await subscription('alice');
    // Alice has sent 3 in the test before.
    for (let i = 3; i < SEND_NOW_PER_HOUR; i++) {
      expect((await sendNow('alice', id)).statusCode).toBe(200);
      await runsEnd();
    }
    const refused = await sendNow('alice', id);
    expect(refused.statusCode).toBe(429);
    const body = refused.json();
    expect(body).toMatchObject({ code: 'SendNowLimit', details: { max: SEND_NOW_PER_HOUR } });
    expect(body.details.minutes).toBeGreaterThanOrEqual(59);
    expect(body.details.minutes).toBeLessThanOrEqual(60);
    // Bob has his own allowance.
    expect((await sendNow('bob', await subscription('bob'))).statusCode).toBe(200);
  });
});
