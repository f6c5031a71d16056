/**
 * bo/getReport parameters of SPEC.md §7 through the real app: filtre/condition/isFilters, tri,
 * regroupement, operation, trainingMode, trancheHoraire, vendeurs with a comma, datefiscales[],
 * tpv[] — figures compared with sums computed from the chain's tickets in memory.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { type Dataset, encodeSellers } from '../../src/contract/reports.ts';
import { localMinute } from '../helpers/chain.ts';
import { setUpReportApp } from '../helpers/report-app.ts';
import { MANAGER } from '../helpers/report-users.ts';
import { type ChainTicket, expectedPeriodRows, loadChain } from './chain.ts';
import { datasetAnswer } from '../helpers/dataset-answer.ts';

const api = setUpReportApp({
  password: 'Rapp0rts!-params',
  users: { manager: MANAGER },
  load: async (database) => ({ tickets: await loadChain(database) }),
});

const BASE =
  'rapportClassName=RapportVentes&format=JSON&dateDebut=2026-11-01&dateFin=2026-11-10&sites[]=1&sites[]=2';

async function report(query: string, className = 'RapportVentes') {
  const url = `/api/bo/getReport?id=${api.manager.id}&${BASE.replace('RapportVentes', className)}&${query}`;
  return api.t.app.inject({ url, headers: api.manager.headers });
}

async function dataset(query: string): Promise<Dataset> {
  const res = await report(query);
  expect(res.statusCode, res.body).toBe(200);
  return datasetAnswer(res);
}

function expected(keep: (k: ChainTicket) => boolean, sites = [1, 2], training = false) {
  return expectedPeriodRows(api.tickets, sites, keep, { training });
}

function figures(rows: Dataset['rows']) {
  return rows.map((r) => ({
    fiscalDate: r.fiscalDate,
    siteId: r.siteId,
    tickets: r.tickets,
    netSales: r.netSales,
  }));
}

function expectedFigures(rows: ReturnType<typeof expected>) {
  return rows.map((r) => ({
    fiscalDate: r.fiscalDate,
    siteId: r.siteId,
    tickets: r.tickets,
    netSales: r.netSales,
  }));
}

describe('filtre, condition and isFilters', () => {
  it('VENDEUR keeps the tickets of the sellers named, a comma inside a name kept as it is', async () => {
    const got = await dataset(
      `isFilters=true&filtre=VENDEUR&condition=${encodeURIComponent('Dupont, Marie')}&condition=S1`,
    );
    const want = expected((k) => k.sellerCode === 'Dupont, Marie' || k.sellerCode === 'S1');
    expect(figures(got.rows)).toEqual(expectedFigures(want));
    expect(got.totals.netSales).toBe(want.reduce((s, r) => s + r.netSales, 0));
  });

  it('CAISSE keeps the tickets of the terminals named, and narrows tpv[] when both are given', async () => {
    const got = await dataset('isFilters=true&filtre=CAISSE&condition[]=2&condition[]=3&tpv[]=1&tpv[]=3');
    expect(figures(got.rows)).toEqual(expectedFigures(expected((k) => k.terminalId === 3)));
  });

  it('answers 400 CheckReportParam when the filter keeps none of the terminals chosen', async () => {
    const res = await report('isFilters=true&filtre=CAISSE&condition=2&tpv[]=1');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'CheckReportParam' });
  });

  it('SITE keeps the sites named among those chosen', async () => {
    const got = await dataset('isFilters=true&filtre=SITE&condition=2');
    expect(figures(got.rows)).toEqual(expectedFigures(expected(() => true, [2])));
  });

  it('DATE keeps the rows of the dates named and sums the totals again over them', async () => {
    const got = await dataset('isFilters=true&filtre=DATE&condition=2026-11-03&condition=2026-11-05');
    const want = expected((k) => k.fiscalDate === '2026-11-03' || k.fiscalDate === '2026-11-05');
    expect(figures(got.rows)).toEqual(expectedFigures(want));
    const net = want.reduce((s, r) => s + r.netSales, 0);
    const count = want.reduce((s, r) => s + r.tickets, 0);
    expect(got.totals.netSales).toBe(net);
    expect(got.totals.tickets).toBe(count);
    expect(got.totals.averageTicket).toBe(Math.round(net / count));
  });

  it('is not applied when isFilters is false', async () => {
    const got = await dataset('isFilters=false&filtre=SITE&condition=2');
    expect(figures(got.rows)).toEqual(expectedFigures(expected(() => true)));
  });

  it('answers 400 BadRequest for isFilters without a filtre, or a filter the report cannot apply', async () => {
    const none = await report('isFilters=true');
    expect(none.statusCode).toBe(400);
    expect(none.json()).toMatchObject({ code: 'BadRequest' });
    const family = await report('isFilters=true&filtre=FAMILLE&condition=Boissons');
    expect(family.statusCode).toBe(400);
    expect(family.json()).toMatchObject({ code: 'BadRequest' });
    expect(family.json().details.filtres).toContain('DATE');
  });
});

describe('tri and regroupement', () => {
  it('tri sorts the rows by a column, upwards by default, downwards with :desc or a leading minus', async () => {
    const up = await dataset('tri=netSales');
    const values = up.rows.map((r) => r.netSales as number);
    expect(values).toEqual([...values].sort((a, b) => a - b));
    const down = await dataset('tri=netSales:desc');
    expect(down.rows.map((r) => r.netSales)).toEqual([...values].reverse());
    const minus = await dataset('tri=-netSales');
    expect(minus.rows.map((r) => r.netSales)).toEqual([...values].reverse());
    expect(up.totals).toEqual(down.totals);
  });

  it('answers 400 BadRequest listing the columns for an unknown tri column', async () => {
    const res = await report('tri=nothing');
    expect(res.statusCode).toBe(400);
    expect(res.json().details.tri).toContain('netSales');
  });

  it('regroupement=SITE merges the days of each site, summing what sums and recomputing the average ticket', async () => {
    const got = await dataset('regroupement=SITE');
    const want = expected(() => true);
    expect(got.rows).toHaveLength(2);
    for (const [i, siteId] of [1, 2].entries()) {
      const mine = want.filter((r) => r.siteId === siteId);
      const net = mine.reduce((s, r) => s + r.netSales, 0);
      const count = mine.reduce((s, r) => s + r.tickets, 0);
      expect(got.rows[i]).toMatchObject({
        siteId,
        tickets: count,
        netSales: net,
        averageTicket: Math.round(net / count),
      });
      expect(got.rows[i]!.fiscalDate).toBeNull();
    }
  });

  it('regroupement and tri combine: days of both sites merged, busiest day first', async () => {
    const got = await dataset('regroupement=DATE&tri=tickets:desc');
    const want = expected(() => true);
    const byDate = new Map<string, number>();
    for (const r of want) byDate.set(r.fiscalDate, (byDate.get(r.fiscalDate) ?? 0) + r.tickets);
    expect(got.rows.map((r) => r.tickets)).toEqual([...byDate.values()].sort((a, b) => b - a));
    expect(got.rows.every((r) => r.siteId === null)).toBe(true);
  });

  it('answers 400 BadRequest for a regroupement on a money column', async () => {
    const res = await report('regroupement=netSales');
    expect(res.statusCode).toBe(400);
    expect(res.json().details.regroupements).toContain('SITE');
  });
});

describe('ticket selection parameters', () => {
  it('trainingMode=true counts the training-mode tickets too', async () => {
    const got = await dataset('trainingMode=true');
    expect(figures(got.rows)).toEqual(expectedFigures(expected(() => true, [1, 2], true)));
  });

  it('trancheHoraire with heureDebut/heureFin, vendeurs with the comma marker and tpv[] together', async () => {
    const got = await dataset(
      `trancheHoraire=true&heureDebut=11:00&heureFin=15:00&vendeurs=${encodeURIComponent(
        encodeSellers(['Dupont, Marie', 'S2']),
      )}&tpv[]=1&tpv[]=2`,
    );
    const want = expected(
      (k) =>
        localMinute(k) >= 660 &&
        localMinute(k) < 900 &&
        (k.sellerCode === 'Dupont, Marie' || k.sellerCode === 'S2') &&
        k.terminalId !== 3,
    );
    expect(figures(got.rows)).toEqual(expectedFigures(want));
  });

  it('datefiscales[] replaces the range', async () => {
    const res = await api.t.app.inject({
      url: `/api/bo/getReport?id=${api.manager.id}&rapportClassName=RapportVentes&format=JSON&datefiscales[]=2026-11-02&datefiscales[]=2026-11-09&sites[]=1`,
      headers: api.manager.headers,
    });
    const got = datasetAnswer(res);
    expect(figures(got.rows)).toEqual(
      expectedFigures(expected((k) => k.fiscalDate === '2026-11-02' || k.fiscalDate === '2026-11-09', [1])),
    );
  });

  it('operation is checked by the class: the tickets report lists cancellations only for ANNULATION; sales refuse it', async () => {
    const res = await report('operation=ANNULATION', 'RapportTickets');
    expect(res.statusCode, res.body).toBe(200);
    const rows = datasetAnswer(res).rows;
    expect(rows).toHaveLength(
      api.tickets.filter(
        (k) => k.siteId !== 3 && k.fiscalDate <= '2026-11-10' && k.kind === 'CANCELLATION' && !k.trainingMode,
      ).length,
    );
    expect(new Set(rows.map((r) => r.kind))).toEqual(new Set(['Annulation']));
    const sales = await report('operation=ANNULATION');
    expect(sales.statusCode).toBe(400);
    expect(sales.json()).toMatchObject({ code: 'BadRequest' });
  });
});

describe('groups of sites (GROUPE)', () => {
  let alpes: number;
  let paris: number;
  beforeAll(async () => {
    const { rows } = await api.t.database.pool.query<{ id: number; raison_sociale: string }>(
      `INSERT INTO groups (raison_sociale) VALUES ('Alpes'), ('Centre'), ('Paris seul') RETURNING id, raison_sociale`,
    );
    const id = (name: string) => rows.find((r) => r.raison_sociale === name)!.id;
    alpes = id('Alpes');
    paris = id('Paris seul');
    await api.t.database.pool.query(
      'INSERT INTO group_sites (group_id, site_id) VALUES ($1, 2), ($2, 2), ($3, 1)',
      [alpes, id('Centre'), paris],
    );
  });

  it('regroupement=GROUPE merges the rows per group; a site in two groups counts in each, one in none under "no group"', async () => {
    // Paris's only group serves the filter test below: take it away here so Paris has none.
    await api.t.database.pool.query('DELETE FROM group_sites WHERE group_id = $1', [paris]);
    const got = await dataset('regroupement=GROUPE&language=en');
    await api.t.database.pool.query('INSERT INTO group_sites (group_id, site_id) VALUES ($1, 1)', [paris]);
    const lyon = expected(() => true, [2]);
    const parisRows = expected(() => true, [1]);
    const sum = (rows: typeof lyon) => rows.reduce((s, r) => s + r.netSales, 0);
    expect(got.columns[0]).toEqual({ key: 'siteGroup', label: 'Site group', type: 'text' });
    expect(got.rows.map((r) => [r.siteGroup, r.siteId, r.netSales])).toEqual([
      ['Alpes', 2, sum(lyon)],
      ['Centre', 2, sum(lyon)],
      ['No group', 1, sum(parisRows)],
    ]);
    expect(got.totals.netSales).toBe(sum(lyon) + sum(parisRows));
  });

  it("filtre=GROUPE keeps the sites of the groups named, in the user's scope", async () => {
    const got = await dataset(`isFilters=true&filtre=GROUPE&condition=${paris}`);
    expect(figures(got.rows)).toEqual(expectedFigures(expected(() => true, [1])));
    const both = await dataset(
      `isFilters=true&filtre=GROUPE&condition=${paris}&condition=${alpes}&tri=netSales:desc&regroupement=GROUPE`,
    );
    // Both sites are kept, so every group of theirs shows (Lyon is in Centre too).
    expect(new Set(both.rows.map((r) => r.siteGroup))).toEqual(new Set(['Paris seul', 'Alpes', 'Centre']));
    const nets = both.rows.map((r) => r.netSales as number);
    expect(nets).toEqual([...nets].sort((a, b) => b - a));
  });

  it('bo/getGroupements lists the groups holding sites of the scope or of the site asked', async () => {
    const url = (extra: string) =>
      `/api/bo/getGroupements?id=${api.manager.id}&rapportGeneralClassName=RapportVentes&filtre=GROUPE&dateDebut=2026-11-01&dateFin=2026-11-10${extra}`;
    const all = await api.t.app.inject({ url: url(''), headers: api.manager.headers });
    expect(all.json().groupements.map((g: { label: string }) => g.label)).toEqual([
      'Alpes',
      'Centre',
      'Paris seul',
    ]);
    const lyon = await api.t.app.inject({ url: url('&restaurantId=2'), headers: api.manager.headers });
    expect(lyon.json().groupements).toEqual([
      { value: String(alpes), label: 'Alpes' },
      expect.objectContaining({ label: 'Centre' }),
    ]);
  });
});

describe('shaped reports as documents', () => {
  it('a grouped and sorted report downloads as PDF, CSV and XLSX (merged cells left empty)', async () => {
    for (const format of ['PDF', 'CSV', 'XLSX']) {
      const res = await api.t.app.inject({
        url: `/api/bo/getReport?id=${api.manager.id}&${BASE.replace('format=JSON', `format=${format}`)}&regroupement=GROUPE&tri=-netSales`,
        headers: api.manager.headers,
      });
      expect(res.statusCode, `${format}: ${res.body.slice(0, 200)}`).toBe(200);
      expect(res.rawPayload.length).toBeGreaterThan(100);
    }
    const csv = await api.t.app.inject({
      url: `/api/bo/getReport?id=${api.manager.id}&${BASE.replace('format=JSON', 'format=CSV')}&regroupement=SITE&language=en`,
      headers: api.manager.headers,
    });
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    expect(lines).toHaveLength(1 + 2 + 1); // header, one line per site, total
  });
});
