import { describe, expect, it } from 'vitest';
import { message } from '../../../src/server/i18n.ts';
import { DomainError } from '../../../src/server/errors.ts';
import type { RawReportInput } from '../../../src/server/reports/request.ts';
import { localMinute, localTime, tradingDayMinute } from '../../helpers/chain.ts';
import { setUpFixtureDatabase } from '../../helpers/db.ts';
import {
  byKeys,
  FX_SITES,
  type FxLoss,
  type FxTicket,
  fxDataset,
  loadFixture,
  voidedValue,
} from './fixture.ts';

const fx = setUpFixtureDatabase(loadFixture);
const dataset = (className: string, overrides?: Partial<RawReportInput>) =>
  fxDataset(fx.database, className, overrides);

const siteName = (id: number) => FX_SITES.find((s) => s.id === id)!.libelle;
const selected = (t: FxTicket, sites = [1, 2]) => sites.includes(t.siteId) && !t.trainingMode;

describe('RapportTickets', () => {
  it('lists every ticket of the chosen sites with its time, terminal, seller, kind, amount and methods', async () => {
    const ds = await dataset('RapportTickets');
    const expected = fx.tickets
      .filter((t) => selected(t))
      .sort(
        byKeys<FxTicket>(
          (t) => t.fiscalDate,
          (t) => t.siteId,
          tradingDayMinute,
          (t) => t.ticketId,
        ),
      )
      .map((t) => ({
        fiscalDate: t.fiscalDate,
        time: localTime(t),
        siteId: t.siteId,
        site: siteName(t.siteId),
        terminalId: t.terminalId,
        sellerCode: t.sellerCode,
        ticketNumber: t.ref,
        kind: message('fr', `report.ticketKind.${t.kind}`),
        amount: t.total,
        payments: [...new Set(t.payments.map((p) => p.method))]
          .map((m) => message('fr', `report.paymentMethod.${m}`))
          .join(', '),
      }));
    expect(ds.rows).toEqual(expected);
    expect(ds.totals.amount).toBe(expected.reduce((s, r) => s + r.amount, 0));
    expect(ds.title).toBe('Tickets');
  });

  it('keeps only cancellation tickets for operation ANNULATION and tickets with a voided line for CORRECTION', async () => {
    const cancelled = await dataset('RapportTickets', { operation: 'ANNULATION' });
    expect(cancelled.rows.map((r) => r.ticketNumber).sort()).toEqual(
      fx.tickets
        .filter((t) => selected(t) && t.kind === 'CANCELLATION')
        .map((t) => t.ref)
        .sort(),
    );
    const corrected = await dataset('RapportTickets', { operation: 'CORRECTION' });
    expect(corrected.rows.map((r) => r.ticketNumber).sort()).toEqual(
      fx.tickets
        .filter((t) => selected(t) && t.lines.some((l) => l.corrected))
        .map((t) => t.ref)
        .sort(),
    );
    expect(corrected.rows.length).toBeGreaterThan(0);
  });

  it('honours terminals, sellers, the hour range across midnight, explicit dates and training mode', async () => {
    const ds = await dataset('RapportTickets', {
      tpv: [2],
      vendeurs: ['S1', 'S3'],
      trancheHoraire: true,
      heureDebut: '20:00',
      heureFin: '01:00',
      trainingMode: true,
      datefiscales: ['2026-11-02', '2026-11-04'],
    });
    const expected = fx.tickets.filter(
      (t) =>
        [1, 2].includes(t.siteId) &&
        ['2026-11-02', '2026-11-04'].includes(t.fiscalDate) &&
        t.terminalId === 2 &&
        ['S1', 'S3'].includes(t.sellerCode) &&
        (localMinute(t) >= 20 * 60 || localMinute(t) < 60),
    );
    expect(ds.rows.map((r) => r.ticketNumber).sort()).toEqual(expected.map((t) => t.ref).sort());
  });

  it('refuses more than 31 days (MaxReportDays) and an unknown operation (BadRequest)', async () => {
    await expect(
      dataset('RapportTickets', { dateDebut: '2026-10-01', dateFin: '2026-11-01' }),
    ).rejects.toMatchObject({
      kind: 'invalid',
      code: 'MaxReportDays',
      details: { maxDays: 31 },
    });
    await expect(dataset('RapportTickets', { operation: 'REMISE' })).rejects.toBeInstanceOf(DomainError);
  });
});

describe('RapportAnnulations', () => {
  it('counts voided lines before payment and cancellation tickets after payment per day and site, to the cent', async () => {
    const ds = await dataset('RapportAnnulations');
    const byKey = new Map<string, Record<string, string | number>>();
    for (const t of fx.tickets.filter((x) => selected(x))) {
      const voided = t.lines.filter((l) => l.corrected);
      if (voided.length === 0 && t.kind !== 'CANCELLATION') continue;
      const key = `${t.fiscalDate}|${t.siteId}`;
      const row = byKey.get(key) ?? {
        fiscalDate: t.fiscalDate,
        siteId: t.siteId,
        site: siteName(t.siteId),
        beforePaymentLines: 0,
        beforePaymentQuantity: 0,
        beforePaymentAmount: 0,
        afterPaymentTickets: 0,
        afterPaymentAmount: 0,
      };
      byKey.set(key, row);
      row.beforePaymentLines = Number(row.beforePaymentLines) + voided.length;
      row.beforePaymentQuantity =
        Number(row.beforePaymentQuantity) + voided.reduce((s, l) => s + l.quantity, 0);
      row.beforePaymentAmount =
        Number(row.beforePaymentAmount) + voided.reduce((s, l) => s + voidedValue(l), 0);
      if (t.kind === 'CANCELLATION') {
        row.afterPaymentTickets = Number(row.afterPaymentTickets) + 1;
        row.afterPaymentAmount = Number(row.afterPaymentAmount) - t.total;
      }
    }
    const expected = [...byKey.values()].sort(
      byKeys(
        (r) => r.fiscalDate!,
        (r) => r.siteId!,
      ),
    );
    expect(ds.rows).toEqual(expected);
    expect(ds.totals.afterPaymentAmount).toBe(expected.reduce((s, r) => s + Number(r.afterPaymentAmount), 0));
    expect(Number(ds.totals.afterPaymentAmount)).toBeGreaterThan(0);
    expect(Number(ds.totals.beforePaymentAmount)).toBeGreaterThan(0);
  });
});

describe('RapportCorrections', () => {
  it('sums voided lines per day, site, terminal and seller with the value they would have had', async () => {
    const ds = await dataset('RapportCorrections', { sites: [2] });
    const byKey = new Map<string, { row: Record<string, string | number>; articles: Set<string> }>();
    for (const t of fx.tickets.filter((x) => selected(x, [2]))) {
      for (const l of t.lines.filter((x) => x.corrected)) {
        const key = `${t.fiscalDate}|${t.terminalId}|${t.sellerCode}`;
        const entry = byKey.get(key) ?? {
          row: {
            fiscalDate: t.fiscalDate,
            siteId: t.siteId,
            site: siteName(t.siteId),
            terminalId: t.terminalId,
            sellerCode: t.sellerCode,
            correctedLines: 0,
            correctedQuantity: 0,
            correctedAmount: 0,
          },
          articles: new Set<string>(),
        };
        byKey.set(key, entry);
        entry.row.correctedLines = Number(entry.row.correctedLines) + 1;
        entry.row.correctedQuantity = Number(entry.row.correctedQuantity) + l.quantity;
        entry.row.correctedAmount = Number(entry.row.correctedAmount) + voidedValue(l);
        entry.articles.add(l.article);
      }
    }
    const expected = [...byKey.values()]
      .map(
        (e): Record<string, string | number> => ({ ...e.row, articles: [...e.articles].sort().join(', ') }),
      )
      .sort(
        byKeys(
          (r) => r.fiscalDate!,
          (r) => r.terminalId!,
          (r) => r.sellerCode!,
        ),
      );
    expect(ds.rows).toEqual(expected);
    expect(ds.totals.correctedAmount).toBe(expected.reduce((s, r) => s + Number(r.correctedAmount), 0));
  });
});

describe('RapportPertes', () => {
  it('sums losses per site, type, family and article with translated types', async () => {
    const ds = await dataset('RapportPertes', {
      language: 'en',
      dateDebut: '2026-11-02',
      dateFin: '2026-11-04',
    });
    const order = ['CUSTOM', 'LOSS', 'REMADE', 'DEGRADED'];
    const byKey = new Map<string, FxLoss & { n: number }>();
    for (const x of fx.losses.filter(
      (l) => [1, 2].includes(l.siteId) && l.fiscalDate >= '2026-11-02' && l.fiscalDate <= '2026-11-04',
    )) {
      const key = `${x.siteId}|${x.type}|${x.family}|${x.article}`;
      const agg = byKey.get(key) ?? { ...x, quantity: 0, amount: 0, n: 0 };
      agg.quantity += x.quantity;
      agg.amount += x.amount;
      byKey.set(key, agg);
    }
    const expected = [...byKey.values()]
      .sort(
        byKeys(
          (r) => r.siteId,
          (r) => order.indexOf(r.type),
          (r) => r.family ?? '\uffff',
          (r) => r.article,
        ),
      )
      .map((r) => ({
        siteId: r.siteId,
        site: siteName(r.siteId),
        lossType: message('en', `report.lossType.${r.type}`),
        family: r.family,
        article: r.article,
        quantity: r.quantity,
        amount: r.amount,
      }));
    expect(ds.rows).toEqual(expected);
    expect(ds.totals.amount).toBe(expected.reduce((s, r) => s + r.amount, 0));
    expect(ds.rows.map((r) => r.lossType)).toContain('Loss (consumed)');
  });

  it('refuses terminals, sellers and hour ranges, which losses do not have', async () => {
    await expect(dataset('RapportPertes', { tpv: [1] })).rejects.toMatchObject({
      kind: 'invalid',
      code: 'BadRequest',
    });
    await expect(dataset('RapportPertes', { trancheHoraire: true })).rejects.toMatchObject({
      kind: 'invalid',
    });
  });
});
