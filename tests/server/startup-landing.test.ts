/**
 * Where sign-in leads (issue #30): with COMPTOIR_DEMO=0 a new installation's administrator lands
 * on the start-up wizard until it is complete; a user whose rights do not open it, and everyone
 * on the demo chain, lands on /home. The client's rule (features/startup/landing.ts) is driven
 * with the real server's answer to GET bo/miseEnRoute/etat.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { landingOf } from '../../src/client/features/startup/landing.ts';
import { RIGHTS } from '../../src/contract/rights.ts';
import { StartupStateSchema } from '../../src/contract/startup.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { waitForMailQueue } from '../helpers/smtp.ts';
import { seedChain } from './fixtures.ts';

const PASSWORD = 'Genere-Mot2passe';
const ADMIN_RIGHTS = RIGHTS.filter((r) => r !== 'LIMITATION_SITE');

/** Signs `login` in on `t` and answers where the client sends them (null state: the call refused). */
async function landing(t: TestApp, login: string, id: number, rights: readonly string[]) {
  const headers = await t.signIn(login, PASSWORD);
  const res = await t.app.inject({ method: 'GET', url: `/api/bo/miseEnRoute/etat?id=${id}`, headers });
  const state = res.statusCode === 200 ? StartupStateSchema.parse(res.json()) : null;
  return { where: landingOf(rights, state), headers };
}

describe('sign-in on an installation without the demo chain (COMPTOIR_DEMO=0)', () => {
  let t: TestApp;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'comptoir-landing-'));
    t = await createTestApp({ config: { demo: false, dataDir, smtpUrl: undefined } });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('leads the administrator to the wizard at every sign-in until the start-up is complete, then home', async () => {
    const id = await t.createUser({
      login: 'admin',
      password: PASSWORD,
      droits: ADMIN_RIGHTS,
      allSites: true,
    });
    expect((await landing(t, 'admin', id, ADMIN_RIGHTS)).where).toBe('/config/miseenroute');
    const { headers } = await landing(t, 'admin', id, ADMIN_RIGHTS);
    // The steps, through the API: a chain, the administrator's own password, a test mail.
    await seedChain(t.database.pool);
    const own = 'Mon-Propre-Mot2passe';
    const changed = await t.app.inject({
      method: 'POST',
      url: `/api/bo/infra/saveUtilisateur?id=${id}`,
      headers,
      payload: { updatePassword: true, currentPassword: PASSWORD, password: own, rePasswordKey: own },
    });
    expect(changed.statusCode).toBe(200);
    const mail = await t.app.inject({
      method: 'POST',
      url: `/api/bo/miseEnRoute/mailTest?id=${id}`,
      headers,
      payload: { email: 'admin@example.com' },
    });
    expect(mail.statusCode).toBe(200);
    await waitForMailQueue(t.database.pool);
    const end = await t.app.inject({
      method: 'GET',
      url: `/api/bo/miseEnRoute?id=${id}`,
      headers: { ...headers, 'idempotency-key': randomUUID() },
    });
    expect(end.statusCode).toBe(200);
    const after = await t.app.inject({ method: 'GET', url: `/api/bo/miseEnRoute/etat?id=${id}`, headers });
    expect(landingOf(ADMIN_RIGHTS, StartupStateSchema.parse(after.json()))).toBe('/home');
  });

  it('sends a user whose rights do not open the wizard home, whatever the state', async () => {
    const id = await t.createUser({
      login: 'gerant',
      password: PASSWORD,
      droits: ['RAPPORTS'],
      allSites: true,
    });
    expect((await landing(t, 'gerant', id, ['RAPPORTS'])).where).toBe('/home');
  });
});

describe('sign-in on the demo chain (COMPTOIR_DEMO=1)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ config: { demo: true } });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('changes nothing: the administrator lands on /home', async () => {
    const id = await t.createUser({
      login: 'admin',
      password: PASSWORD,
      droits: ADMIN_RIGHTS,
      allSites: true,
    });
    expect((await landing(t, 'admin', id, ADMIN_RIGHTS)).where).toBe('/home');
  });
});
