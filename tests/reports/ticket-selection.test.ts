/**
 * The one ticket selection of the report catalogue (src/server/reports/ticket-selection.ts):
 * its rules checked on the operations fixture against the tickets kept in memory, then every
 * ticket-level class checked to count the very same tickets for one filtered request, and the
 * Z report's VAT and payment items checked to be RapportTva's and RapportFinance's figures.
 */
import { describe, expect, it } from 'vitest';
import type { Dataset } from '../../src/contract/reports.ts';
import { withRawReads } from '../../src/server/reports/aggregate-reads.ts';
import { type RawReportInput, resolveReport } from '../../src/server/reports/request.ts';
import {
  type TicketOperation,
  type TicketSelectionOptions,
  TICKETS_FROM,
  ticketConditions,
} from '../../src/server/reports/ticket-selection.ts';
import { localMinute } from '../helpers/chain.ts';
import { setUpFixtureDatabase } from '../helpers/db.ts';
import { FX_NOW, type FxTicket, fxDataset, fxInput, loadFixture, voidedValue } from './operations/fixture.ts';

const fx = setUpFixtureDatabase(loadFixture);

/** The ticket ids the module selects for `overrides`, ascending. */
async function selectedIds(
  overrides: Partial<RawReportInput>,
  options: TicketSelectionOptions = {},
): Promise<number[]> {
  const { request } = await resolveReport(
    fxInput('RapportTickets', overrides),
    [1, 2, 3],
    fx.database,
    FX_NOW,
  );
  const values: unknown[] = [];
  const where = ticketConditions(request, values, options);
  const { rows } = await fx.database.pool.query<{ id: number }>(
    `SELECT t.ticket_id::int AS id FROM ${TICKETS_FROM} WHERE ${where} ORDER BY 1`,
    values,
  );
  return rows.map((r) => r.id);
}

const ids = (keep: (t: FxTicket) => boolean) =>
  fx.tickets
    .filter(keep)
    .map((t) => t.ticketId)
    .sort((a, b) => a - b);
const base = (t: FxTicket) => [1, 2].includes(t.siteId) && !t.trainingMode;

describe('the ticket selection', () => {
  it('keeps the tickets of the chosen sites and fiscal dates, training tickets left out', async () => {
    expect(await selectedIds({})).toEqual(ids(base));
    expect(await selectedIds({ sites: [3], dateDebut: '2026-11-02', dateFin: '2026-11-03' })).toEqual(
      ids(
        (t) =>
          t.siteId === 3 && !t.trainingMode && t.fiscalDate >= '2026-11-02' && t.fiscalDate <= '2026-11-03',
      ),
    );
    expect(await selectedIds({ datefiscales: ['2026-11-01', '2026-11-05'] })).toEqual(
      ids((t) => base(t) && ['2026-11-01', '2026-11-05'].includes(t.fiscalDate)),
    );
  });

  it('adds training tickets only when trainingMode=true', async () => {
    const all = await selectedIds({ trainingMode: true });
    expect(all).toEqual(ids((t) => [1, 2].includes(t.siteId)));
    expect(all.length).toBeGreaterThan(ids(base).length);
  });

  it('keeps only the chosen terminals and sellers, every one when none is chosen', async () => {
    expect(await selectedIds({ tpv: [1, 3], vendeurs: ['S2'] })).toEqual(
      ids((t) => base(t) && [1, 3].includes(t.terminalId) && t.sellerCode === 'S2'),
    );
  });

  it('reads the hour range in the site clock, start included and end excluded', async () => {
    // The fixture opens tickets at 23:45 and at 00:30 (after midnight, previous fiscal date).
    expect(await selectedIds({ trancheHoraire: true, heureDebut: '08:00', heureFin: '23:45' })).toEqual(
      ids((t) => base(t) && localMinute(t) >= 8 * 60 && localMinute(t) < 23 * 60 + 45),
    );
    const fromLate = await selectedIds({ trancheHoraire: true, heureDebut: '23:45', heureFin: '00:30' });
    expect(fromLate).toEqual(ids((t) => base(t) && t.localHour === 23 && t.localMinute === 45));
    expect(fromLate.length).toBeGreaterThan(0);
  });

  it('runs an hour range past midnight when it ends before it starts, and reads equal bounds as the whole day', async () => {
    expect(await selectedIds({ trancheHoraire: true, heureDebut: '20:00', heureFin: '01:00' })).toEqual(
      ids((t) => base(t) && (localMinute(t) >= 20 * 60 || localMinute(t) < 60)),
    );
    expect(await selectedIds({ trancheHoraire: true, heureDebut: '12:00', heureFin: '12:00' })).toEqual(
      ids(base),
    );
  });

  it('narrows to cancellation tickets or tickets with a voided line for ANNULATION and CORRECTION, and keeps every ticket for VENTE and TOUTES', async () => {
    const expected: Array<[TicketOperation, (t: FxTicket) => boolean]> = [
      ['VENTE', () => true],
      ['TOUTES', () => true],
      ['ANNULATION', (t) => t.kind === 'CANCELLATION'],
      ['CORRECTION', (t) => t.lines.some((l) => l.corrected)],
    ];
    for (const [operation, keep] of expected) {
      const got = await selectedIds({}, { operation });
      expect(got, operation).toEqual(ids((t) => base(t) && keep(t)));
      expect(got.length, operation).toBeGreaterThan(0);
    }
  });

  it('selects another period when a class asks for one (the comparison’s previous year)', async () => {
    expect(
      await selectedIds(
        {},
        { period: { dateDebut: '2026-11-04', dateFin: '2026-11-05', fiscalDates: null } },
      ),
    ).toEqual(ids((t) => base(t) && t.fiscalDate >= '2026-11-04'));
  });
});

describe('every ticket-level report', () => {
  const DATES = ['2026-11-02', '2026-11-03', '2026-11-05'];
  /** Requests narrowed by every filter at once, and the tickets each must keep. */
  const CASES: Array<[string, Partial<RawReportInput>, (t: FxTicket) => boolean]> = [
    [
      'terminals, sellers, explicit dates, training tickets and an hour range past midnight',
      {
        tpv: [1, 2],
        vendeurs: ['S1', 'S3'],
        trancheHoraire: true,
        heureDebut: '21:00',
        heureFin: '11:00',
        trainingMode: true,
        datefiscales: DATES,
      },
      (t) =>
        [1, 2].includes(t.siteId) &&
        [1, 2].includes(t.terminalId) &&
        ['S1', 'S3'].includes(t.sellerCode) &&
        (localMinute(t) >= 21 * 60 || localMinute(t) < 11 * 60) &&
        DATES.includes(t.fiscalDate),
    ],
    [
      'one site, one seller and a daytime hour range',
      { sites: [2], vendeurs: ['S2'], trancheHoraire: true, heureDebut: '09:30', heureFin: '19:00' },
      (t) =>
        t.siteId === 2 &&
        !t.trainingMode &&
        t.sellerCode === 'S2' &&
        localMinute(t) >= 9 * 60 + 30 &&
        localMinute(t) < 19 * 60,
    ],
  ];

  const dataset = (className: string, overrides: Partial<RawReportInput>) =>
    fxDataset(fx.database, className, overrides);
  const total = (ds: Dataset, key: string) => Number(ds.totals[key]);
  const zSum = (ds: Dataset, code: (c: string) => boolean, field: 'count' | 'amount') =>
    ds.rows.filter((r) => code(String(r.code))).reduce((s, r) => s + Number(r[field]), 0);

  for (const [label, overrides, keep] of CASES) {
    it(`counts the same tickets in every class: ${label}`, async () => {
      const selected = fx.tickets.filter(keep);
      expect(selected.length).toBeGreaterThan(5);
      const net = selected.reduce((s, t) => s + t.total, 0);
      const paid = selected.flatMap((t) => t.payments).reduce((s, p) => s + p.amount, 0);
      const voided = selected.flatMap((t) => t.lines).filter((l) => l.corrected);
      const cancellations = selected.filter((t) => t.kind === 'CANCELLATION');
      const saleTickets = selected.filter((t) => t.kind === 'SALE').length;

      const listed = await dataset('RapportTickets', overrides);
      expect(listed.rows.map((r) => r.ticketNumber).sort()).toEqual(selected.map((t) => t.ref).sort());
      expect(total(listed, 'amount')).toBe(net);

      const sales = await dataset('RapportVentes', overrides);
      expect([total(sales, 'tickets'), total(sales, 'netSales')]).toEqual([saleTickets, net]);
      for (const className of [
        'RapportVentesHoraire',
        'RapportVentesCaisse',
        'RapportVentesVendeur',
        'RapportVentesTva',
      ]) {
        expect(total(await dataset(className, overrides), 'netSales'), className).toBe(net);
      }
      expect(total(await dataset('RapportTva', overrides), 'netSales')).toBe(net);
      expect(total(await dataset('RapportFinance', overrides), 'totalPayments')).toBe(paid);
      expect(total(await dataset('RapportVentesPaiement', overrides), 'amount')).toBe(paid);

      const cancelled = await dataset('RapportAnnulations', overrides);
      expect([total(cancelled, 'afterPaymentTickets'), total(cancelled, 'beforePaymentLines')]).toEqual([
        cancellations.length,
        voided.length,
      ]);
      const corrected = await dataset('RapportCorrections', overrides);
      expect([total(corrected, 'correctedLines'), total(corrected, 'correctedAmount')]).toEqual([
        voided.length,
        voided.reduce((s, l) => s + voidedValue(l), 0),
      ]);

      const z = await dataset('RapportZ', overrides);
      expect(zSum(z, (c) => c === 'TICKETS', 'count')).toBe(saleTickets);
      expect(zSum(z, (c) => c === 'TICKETS', 'amount')).toBe(net);
      expect(zSum(z, (c) => c.startsWith('PAYMENT_'), 'amount')).toBe(paid);
      expect(zSum(z, (c) => c === 'CANCELLATIONS', 'count')).toBe(cancellations.length);
      expect(zSum(z, (c) => c === 'CORRECTIONS', 'count')).toBe(voided.length);
    });
  }

  it('refuses ANNULATION and CORRECTION in the sales views, which only show every ticket', async () => {
    for (const operation of ['ANNULATION', 'CORRECTION']) {
      await expect(dataset('RapportVentesTva', { operation }), operation).rejects.toMatchObject({
        kind: 'invalid',
      });
    }
  });
});

describe('the Z report', () => {
  const CASES: Array<[string, Partial<RawReportInput>, boolean]> = [
    ['from the per-day aggregates', {}, false],
    ['from the tickets', {}, true],
    [
      'with terminals and an hour range',
      { tpv: [1, 3], trancheHoraire: true, heureDebut: '11:00', heureFin: '22:00' },
      false,
    ],
  ];
  for (const [label, overrides, raw] of CASES) {
    it(`shows the VAT of RapportTva and the payments of RapportFinance for each day and site, ${label}`, async () => {
      const read = (className: string) => {
        const run = () => fxDataset(fx.database, className, overrides);
        return raw ? withRawReads(run) : run();
      };
      const [z, vat, finance] = [
        await read('RapportZ'),
        await read('RapportTva'),
        await read('RapportFinance'),
      ];
      const items = (prefix: string) =>
        new Map<string, unknown>(
          z.rows
            .filter((r) => String(r.code).startsWith(prefix))
            .map((r) => [`${r.fiscalDate} ${r.siteId} ${String(r.code).slice(prefix.length)}`, r.amount]),
        );
      // A rate whose every line was voided has no VAT item (its VAT is 0).
      const vatRows = new Map<string, unknown>(
        vat.rows.map((r) => [`${r.fiscalDate} ${r.siteId} ${Number(r.vatRate)}`, r.tax] as const),
      );
      const zVat = items('VAT_');
      expect(zVat.size).toBeGreaterThan(0);
      for (const [key, tax] of zVat) expect(vatRows.get(key), key).toBe(tax);
      for (const [key, tax] of vatRows) if (tax !== 0) expect(zVat.get(key), key).toBe(tax);

      const paidRows = new Map<string, unknown>(
        finance.rows.flatMap((r) =>
          ['CASH', 'CARD', 'MEAL_VOUCHER', 'CHEQUE', 'OTHER'].map(
            (m) => [`${r.fiscalDate} ${r.siteId} ${m}`, r[`payment_${m}`]] as const,
          ),
        ),
      );
      const zPaid = items('PAYMENT_');
      expect(zPaid.size).toBeGreaterThan(0);
      for (const [key, amount] of zPaid) expect(paidRows.get(key), key).toBe(amount);
      for (const [key, amount] of paidRows) if (amount !== 0) expect(zPaid.get(key), key).toBe(amount);
    });
  }
});
