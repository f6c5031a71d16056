/**
 * The rights matrix (issue #18 "Proof"), generated from the rights table contract/rights.ts
 * API_RIGHTS: every API route × {no session, a signed-in user without the right, a user with the
 * right whose only site is another one, a user with the right and the site} → 401 / 403 / 403 /
 * 2xx, on the real server and database. Public routes answer 2xx in every case and `session`
 * routes need no right; a route that names no site answers "another site" as "the site" (its
 * sample in tests/helpers/rights-samples.ts says why). A `session` route that checks a finer right
 * itself names it in its sample (`rights`): GET bo/home/{widget}, whose widgets each need the right
 * of their data (contract/home.ts HOME_WIDGET_RIGHTS: ventes and previsions RAPPORTS or BI, coffre
 * COFFRE, RECUS or COMPTAGE, evenements RAPPORTS, BI or EVENEMENTS). So a route added to the table without its
 * right, without a registered route or without a sample fails here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_HEADER, CLIENT_HEADER_VALUE } from '../../src/contract/api.ts';
import { API_RIGHTS, type ApiRoute, RIGHTS, type Requirement } from '../../src/contract/rights.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { openTestMailbox, type TestMailbox } from '../helpers/smtp.ts';
import {
  type Caller,
  PASSWORD,
  rightsFor,
  SAMPLES,
  type Sample,
  type SampleContext,
  type SampleRequest,
} from '../helpers/rights-samples.ts';
import { seedPayments } from './counting/seed.ts';
import { type Chain, seedChain } from './fixtures.ts';

const KEYS = Object.keys(API_RIGHTS) as ApiRoute[];

/** The four callers of the matrix. */
const CASES = [
  'no session',
  'without the right',
  'with the right, another site only',
  'with the right and the site',
] as const;
type Case = (typeof CASES)[number];

/** What a case must answer: a status, or any 2xx. */
type Expected = { status: number; code?: string } | '2xx';

/** The expected answer of route `key` (sample `sample`) in case `c`. */
function expected(key: ApiRoute, sample: Sample, c: Case): Expected {
  const requirement: Requirement = API_RIGHTS[key];
  switch (c) {
    case 'no session':
      return requirement === 'public' ? '2xx' : { status: 401, code: 'Unauthorized' };
    case 'without the right':
      return typeof requirement === 'object' || sample.rights ? { status: 403, code: 'Forbidden' } : '2xx';
    case 'with the right, another site only':
      if (sample.otherSite) return { status: sample.otherSite.status };
      return sample.site === true ? { status: 403, code: 'Forbidden' } : '2xx';
    case 'with the right and the site':
      return sample.withTheSite ? { status: sample.withTheSite.status, code: 'Forbidden' } : '2xx';
  }
}

describe('rights matrix: every route of the rights table × four callers', () => {
  let t: TestApp;
  let chain: Chain;
  let mailbox: TestMailbox;
  let admin: Caller;
  let nobody: Caller;
  /** Users holding a requirement's rights, by `<rights>@<site>`, created on first use. */
  const users = new Map<string, Caller>();

  /** Creates a user with an e-mail, signs them in. */
  async function makeCaller(
    login: string,
    droits: string[],
    sites: { allSites?: boolean; restaurantIds?: number[] },
  ) {
    const id = await t.createUser({ login, password: PASSWORD, droits, ...sites });
    const email = `${login}@example.com`;
    await t.database.pool.query(`UPDATE users SET email = $2, role = 'DIRECTEUR' WHERE id = $1`, [id, email]);
    return { id, login, email, headers: await t.signIn(login, PASSWORD) };
  }

  /** The user holding `rights` whose only site is `site`. */
  async function holder(rights: string[], site: number): Promise<Caller> {
    const name = `${rights.join('+') || 'session'}@${site}`;
    let user = users.get(name);
    if (!user) {
      user = await makeCaller(`m${users.size}-${site}`, rights, { restaurantIds: [site] });
      users.set(name, user);
    }
    return user;
  }

  beforeAll(async () => {
    mailbox = await openTestMailbox();
    t = await createTestApp({ config: { smtpUrl: mailbox.url } });
    chain = await seedChain(t.database.pool);
    await seedPayments(t.database.pool, chain.sites.paris);
    admin = await makeCaller('matrix-admin', [...RIGHTS], { allSites: true });
    nobody = await makeCaller('matrix-nobody', [], { restaurantIds: [chain.sites.paris] });
  });
  afterAll(async () => {
    await t?.close();
    await mailbox.close();
  });

  /** The caller of case `c` for a route needing `requirement`, and the site they own. */
  async function callerOf(
    requirement: Requirement,
    sample: Sample,
    c: Case,
  ): Promise<{ caller: Caller; ownSite: number }> {
    const { paris, nantes } = chain.sites;
    const rights = sample.rights ? [...sample.rights] : rightsFor(requirement);
    if (c === 'without the right') return { caller: nobody, ownSite: paris };
    if (c === 'with the right, another site only') {
      return { caller: await holder(rights, nantes), ownSite: nantes };
    }
    // No session: the sample is built for the caller with the right (its preparations need one),
    // then sent without credentials.
    return { caller: await holder(rights, paris), ownSite: paris };
  }

  /** Sends the sample of `key` as case `c`. */
  async function send(key: ApiRoute, sample: Sample, c: Case) {
    const { caller, ownSite } = await callerOf(API_RIGHTS[key], sample, c);
    const ctx: SampleContext = {
      t,
      site: chain.sites.paris,
      ownSite,
      company: chain.companies.beta,
      caller,
      admin,
    };
    const request: SampleRequest = await sample.request(ctx);
    let headers: Record<string, string> = { [CLIENT_HEADER]: CLIENT_HEADER_VALUE };
    if (c !== 'no session') {
      headers = sample.freshSession ? await t.signIn(caller.login, PASSWORD) : caller.headers;
    }
    return t.app.inject({ ...request, headers: { ...headers, ...request.headers } });
  }

  it('has a sample for every route of the rights table, and none for a route outside it', () => {
    expect(KEYS.filter((key) => !SAMPLES[key])).toEqual([]);
    expect(Object.keys(SAMPLES).filter((key) => !Object.hasOwn(API_RIGHTS, key))).toEqual([]);
  });

  it.each(KEYS.flatMap((key) => CASES.map((c) => [key, c] as const)))('%s — %s', async (key, c) => {
    const sample = SAMPLES[key];
    if (!sample) {
      throw new Error(`${key}: no sample request in tests/helpers/rights-samples.ts SAMPLES — add one`);
    }
    const [method, path] = key.split(' ') as ['GET' | 'POST', string];
    if (!t.app.hasRoute({ method, url: `/api/${path}` })) {
      throw new Error(`${key} is in API_RIGHTS but no route of this server serves ${method} /api/${path}`);
    }
    const res = await send(key, sample, c);
    const want = expected(key, sample, c);
    const seen = `${res.statusCode} ${res.body.slice(0, 300)}`;
    if (want === '2xx') {
      expect(res.statusCode >= 200 && res.statusCode < 300, seen).toBe(true);
    } else {
      expect(res.statusCode, seen).toBe(want.status);
      if (want.code) expect(res.json(), seen).toMatchObject({ code: want.code });
    }
  });
});
