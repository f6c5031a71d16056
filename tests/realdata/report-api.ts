/**
 * The real application for the real-data suite: a fresh database, an analyst allowed to read
 * reports, and `report()` asking bo/getReport for a JSON dataset exactly as the client does.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import type { DistributionAnswer } from '../../src/contract/distributions.ts';
import type { Dataset } from '../../src/contract/reports.ts';
import { type AuthHeaders, createTestApp, type TestApp } from '../helpers/app.ts';
import { REPO } from './expected.ts';
import { datasetAnswer } from '../helpers/dataset-answer.ts';

const PASSWORD = 'Real-Data-2026!';

/** English labels of the messages, for the cells reports translate (kinds, day parts, "not set"). */
export const EN: Record<string, string> = JSON.parse(
  fs.readFileSync(path.join(REPO, 'i18n/en.json'), 'utf8'),
);

/** The app with a signed-in analyst; `report()` answers the JSON dataset of a class (and checks 200). */
export async function reportingApp() {
  const t: TestApp = await createTestApp();
  const userId = await t.createUser({
    login: 'analyst',
    password: PASSWORD,
    droits: ['RAPPORTS'],
    allSites: true,
  });
  const headers: AuthHeaders = await t.signIn('analyst', PASSWORD);
  return {
    t,
    async report(
      className: string,
      variant: string,
      from: string,
      to: string,
      siteId: number,
      extra = '',
    ): Promise<Dataset> {
      // The imports write sites behind the server's back, as `npm run import` does from another
      // process: let its caches hear of them first (src/server/db/changes.ts).
      await t.app.changes.settled();
      const res = await t.app.inject({
        url:
          `/api/bo/getReport?id=${userId}&rapportClassName=${className}&typeRapport=${variant}&format=JSON&language=en` +
          `&dateDebut=${from}&dateFin=${to}&sites[]=${siteId}${extra}`,
        headers,
      });
      expect(res.statusCode, `${className} ${variant} ${from}..${to}: ${res.body.slice(0, 300)}`).toBe(200);
      return datasetAnswer(res);
    },
    /** GET bo/getRepartition (SPEC.md §7) of one site, checked 200. */
    async distribution(
      type: string,
      statut: string,
      from: string,
      to: string,
      siteId: number,
    ): Promise<DistributionAnswer> {
      await t.app.changes.settled();
      const res = await t.app.inject({
        url: `/api/bo/getRepartition?id=${userId}&typeRepartition=${type}&statut=${statut}&site=${siteId}&dateDebut=${from}&dateFin=${to}&language=en`,
        headers,
      });
      expect(res.statusCode, `${type} ${statut} ${from}..${to}: ${res.body.slice(0, 300)}`).toBe(200);
      return res.json<DistributionAnswer>();
    },
  };
}
