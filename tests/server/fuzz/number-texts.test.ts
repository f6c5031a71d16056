/**
 * Numbers written as text are canonical decimal and within their column, on every operation of
 * the OpenAPI document (issue #32 items C.1 and C.7): `tpv=2147483648` reached PostgreSQL (500)
 * and `removeUtilisateur?id=+1` removed user 1. For each query parameter the document types as an
 * integer, or names like a list of ids (`sites[]`, `tpv`), requests the schema accepts are drawn
 * (tests/helpers/fuzz-requests.ts) and that one parameter is rewritten as a text the server must
 * refuse (`+N`, ` N`, `0N`, `N.0`, `Ne0`, `0x…`, 2³¹, `N,2147483648`): every answer is a 4xx in
 * SPEC.md §8's shape, never a 2xx (the value was read) nor a 5xx (it reached the database). A new
 * route is covered without editing this file.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RIGHTS } from '../../../src/contract/rights.ts';
import { createTestApp, type AuthHeaders, type TestApp } from '../../helpers/app.ts';
import { insertOneSite } from '../../helpers/chain.ts';
import { violation } from '../../helpers/fuzz-properties.ts';
import { type FuzzOperation, operationsOf, requestArbitrary } from '../../helpers/fuzz-requests.ts';
import { NUMBER_TEXT_NAMES, refusedNumberTexts } from '../../helpers/fuzz-values.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 20_261_207);
const RUNS = Number(process.env.FUZZ_RUNS ?? 3);
const PASSWORD = 'Numb3r-texts-Horse!';

/** The query parameters of `op` that carry whole numbers as text. */
function numberParameters(op: FuzzOperation): string[] {
  return op.parameters
    .filter((p) => p.in === 'query')
    .filter((p) => [p.schema?.type ?? []].flat().includes('integer') || NUMBER_TEXT_NAMES.test(p.name))
    .map((p) => p.name);
}

describe('numbers written as text', () => {
  let t: TestApp;
  let id: number;
  let headers: AuthHeaders;
  beforeAll(async () => {
    t = await createTestApp();
    await insertOneSite(t.database.pool, 'Nombres SAS', 'Comptoir Nombres');
    id = await t.createUser({ login: 'nombres', password: PASSWORD, droits: RIGHTS, allSites: true });
    headers = await t.signIn('nombres', PASSWORD);
  });
  afterAll(async () => {
    await t.close();
  });

  it('a non-canonical or out-of-range number in any integer query parameter answers 4xx, never 2xx or 5xx', async () => {
    const operations = operationsOf(t.app.swagger());
    const failures: string[] = [];
    let requests = 0;
    for (const op of operations) {
      for (const name of numberParameters(op)) {
        const texts = fc.constantFrom(...refusedNumberTexts(name === 'id' ? id : 1));
        const request = requestArbitrary(op, { ids: [id, 1], hostility: 0 });
        const details = await fc.check(
          fc.asyncProperty(request, texts, async (req, text) => {
            const [path, query = ''] = req.url.split('?');
            const params = new URLSearchParams(query);
            params.delete(name);
            params.set(name, text);
            const res = await t.app.inject({
              method: req.method as 'GET',
              url: `${path}?${params.toString()}`,
              headers: { ...req.headers, ...headers },
              ...(req.payload !== undefined ? { payload: req.payload } : {}),
            });
            requests += 1;
            const wrong =
              violation(res) ??
              (res.statusCode < 400 ? `answered ${res.statusCode}: the text was read` : null);
            if (wrong) throw new Error(`${wrong}: ${name}=${JSON.stringify(text)} ${req.method} ${path}`);
          }),
          { seed: SEED, numRuns: RUNS, endOnFailure: true },
        );
        if (details.failed) failures.push(String((details.errorInstance as Error | null)?.message));
      }
    }
    console.info(`number texts: ${requests} requests`);
    expect(failures).toEqual([]);
    // The walk found the parameters of the reproductions.
    expect(requests).toBeGreaterThan(100);
  }, 300_000);
});
