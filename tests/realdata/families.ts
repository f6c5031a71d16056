/**
 * The report families a data set can feed, each asked through bo/getReport (JSON) over the
 * whole span of the data (in windows of the class's maximum days) and compared, row by row and
 * to the cent, with the figures of expected.ts computed from the raw file.
 *
 * What imported files cannot feed (no terminal, seller, payment, covers, employee meal, voided
 * line or loss in any of them) shows as zeros in the figures that carry them (covers, Z items),
 * as a single "not set" row (by terminal, by seller) or as no row at all (payments); the
 * corrections and losses classes, built only on those, are not asked here.
 *
 * Besides whole periods, the same figures are asked for an hour range (trancheHoraire, which
 * makes the reports read the tickets instead of the per-day aggregates) and for explicit
 * fiscal dates (datefiscales[]); bo/getRepartition is proven for each of its dimensions and
 * statuts.
 */
import { isDeepStrictEqual } from 'node:util';
import { expect, it } from 'vitest';
import type { DistributionAnswer } from '../../src/contract/distributions.ts';
import type { Dataset } from '../../src/contract/reports.ts';
import {
  byDate,
  cancellations,
  comparison,
  covers,
  cumulative,
  dayParts,
  type ExpLine,
  type ExpTicket,
  families,
  hourly,
  average,
  fiscalDate,
  months,
  salesByDay,
  share,
  span,
  ticketList,
  vatBreakdown,
  vatRates,
  windows,
  zItems,
} from './expected.ts';
import { EN } from './report-api.ts';

/** An imported data set and what the suite expects of it. */
export interface ProvenSet {
  site: { id: number; name: string };
  currency: string;
  tickets: ExpTicket[];
  lines: ExpLine[];
  /** The mapping's VAT rate as a fraction. */
  rate: number;
}

export type ReportFn = (
  className: string,
  variant: string,
  from: string,
  to: string,
  siteId: number,
  extra?: string,
) => Promise<Dataset>;

/**
 * The tickets of `set` opened from `from` (included) to `to` (excluded), `HH:mm` in the site's
 * clock, with their lines: what a report asked with trancheHoraire=true&heureDebut&heureFin keeps
 * (a range ending before it starts runs past midnight).
 */
export function withinHours(set: ProvenSet, from: string, to: string): ProvenSet {
  const keep = (t: ExpTicket) => {
    const time = t.first.slice(11, 16);
    return from < to ? time >= from && time < to : time >= from || time < to;
  };
  return { ...set, tickets: set.tickets.filter(keep), lines: set.lines.filter((l) => keep(l.ticket)) };
}

/** Rows equal one by one; on a difference the first differing row is shown with its index. */
export function expectRows(
  got: readonly Record<string, unknown>[],
  want: readonly Record<string, unknown>[],
  what: string,
): void {
  const firstDiff = want.findIndex((w, i) => !isDeepStrictEqual(got[i], w));
  if (firstDiff >= 0) expect(got[firstDiff], `${what}: row ${firstDiff}`).toEqual(want[firstDiff]);
  expect(got.length, `${what}: number of rows`).toBe(want.length);
}

/** Registers one test per family; `data()` and `report()` are ready once the file's beforeAll ran. */
export function proveFamilies(
  label: string,
  data: () => ProvenSet,
  report: () => ReportFn,
  { cancellationsToo = false, dailyToo = false, extra = '' } = {},
): void {
  const each = async (
    className: string,
    variant: string,
    maxDays: number,
    check: (d: Dataset, from: string, to: string, s: ProvenSet) => void,
  ) => {
    const s = data();
    const { first, last } = span(s.tickets);
    const periods = maxDays === 31 ? months(first, last) : windows(first, last, maxDays);
    for (const [from, to] of periods) {
      const d = await report()(className, variant, from, to, s.site.id, extra);
      expect(d.currency).toBe(s.currency);
      check(d, from, to, s);
    }
  };

  if (dailyToo) {
    it(`${label}: sales by day (RapportVentes) equal the file, fiscal date by fiscal date`, async () => {
      const days = byDate(data().tickets);
      await each('RapportVentes', 'Daily', 400, (d, from, to) => {
        const want = salesByDay(days, from, to);
        expectRows(
          d.rows.map(({ siteId: _i, site: _s, ...r }) => r),
          want.rows,
          `sales ${from}..${to}`,
        );
        expect(d.totals).toMatchObject(want.totals);
      });
    });
  }

  it(`${label}: sales by local hour (RapportVentesHoraire) equal the file, hour by hour`, async () => {
    await each('RapportVentesHoraire', 'Daily', 400, (d, from, to, s) => {
      const want = hourly(s.tickets, from, to);
      expectRows(d.rows, want.rows, `hours ${from}..${to}`);
      expect(d.totals).toEqual(want.totals);
    });
  });

  it(`${label}: sales by day part (RapportVentesTranche) equal the file's hours added up per SPEC §9 part`, async () => {
    await each('RapportVentesTranche', 'Daily', 400, (d, from, to, s) => {
      const want = dayParts(s.tickets, from, to);
      expectRows(
        d.rows,
        want.rows.map(({ key, ...r }) => ({ dayPart: EN[`report.dayPart.${key}`], ...r })),
        `day parts ${from}..${to}`,
      );
      expect(d.totals).toEqual(want.totals);
    });
  });

  it(`${label}: sales by product family (RapportVentesFamille) equal the file's lines per family`, async () => {
    await each('RapportVentesFamille', 'Daily', 400, (d, from, to, s) => {
      const want = families(s.lines, from, to);
      expectRows(
        d.rows,
        want.rows.map((r) => ({ ...r, family: r.family ?? EN['report.notSet'] })),
        `families ${from}..${to}`,
      );
      expect(d.totals).toEqual(want.totals);
    });
  });

  it(`${label}: sales by VAT rate (RapportVentesTva) equal the file at the mapping's rate`, async () => {
    await each('RapportVentesTva', 'Daily', 400, (d, from, to, s) => {
      const want = vatRates(s.tickets, from, to, s.rate);
      expectRows(d.rows, want.rows, `VAT rates ${from}..${to}`);
      expect(d.totals).toEqual(want.totals);
    });
  });

  it(`${label}: covers and average ticket (RapportVentesCouverts) per fiscal date equal the file`, async () => {
    await each('RapportVentesCouverts', 'Daily', 400, (d, from, to, s) => {
      const want = covers(byDate(s.tickets), from, to, s.site);
      expectRows(d.rows, want.rows, `covers ${from}..${to}`);
      expect(d.totals).toEqual(want.totals);
    });
  });

  it(`${label}: comparison with 52 weeks earlier (RapportVentesComparaison), Daily and Cumulative, equals the file`, async () => {
    const days = byDate(data().tickets);
    await each('RapportVentesComparaison', 'Daily', 400, (d, from, to, s) => {
      const want = comparison(days, from, to, s.site);
      expectRows(d.rows, want.rows, `comparison ${from}..${to}`);
      expect(d.totals).toEqual(want.totals);
    });
    await each('RapportVentesComparaison', 'Cumulative', 400, (d, from, to, s) => {
      const want = cumulative(comparison(days, from, to, s.site));
      expectRows(d.rows, want.rows, `cumulative ${from}..${to}`);
      expect(d.totals).toEqual(want.totals);
    });
  });

  it(`${label}: the tickets report (RapportTickets) lists every ticket of each month with its time, number, kind and amount`, async () => {
    await each('RapportTickets', 'Daily', 31, (d, from, to, s) => {
      const want = ticketList(s.tickets, from, to, s.site).map((r) => ({
        ...r,
        kind: EN[`report.ticketKind.${r.kind}`],
      }));
      expectRows(d.rows, want, `tickets ${from}..${to}`);
      expect(d.totals.amount).toBe(want.reduce((a, r) => a + r.amount, 0));
    });
  });

  it(`${label}: the VAT breakdown (RapportTva) per fiscal date equals the file`, async () => {
    await each('RapportTva', 'Daily', 400, (d, from, to, s) => {
      const want = vatBreakdown(byDate(s.tickets), from, to, s.site, s.rate);
      expectRows(d.rows, want, `VAT breakdown ${from}..${to}`);
      expect(d.totals).toMatchObject({
        vatBase: want.reduce((a, r) => a + r.vatBase, 0),
        tax: want.reduce((a, r) => a + r.tax, 0),
        netSales: want.reduce((a, r) => a + r.netSales, 0),
      });
    });
  });

  it(`${label}: the Z report (RapportZ) of every fiscal date equals the file`, async () => {
    const days = byDate(data().tickets);
    await each('RapportZ', 'Daily', 31, (d, from, to, s) => {
      expectRows(
        d.rows.map(({ item: _label, ...r }) => r),
        zItems(days, from, to, s.site, s.rate),
        `Z ${from}..${to}`,
      );
    });
  });

  it(`${label}: sales by terminal and by seller (RapportVentesCaisse, RapportVentesVendeur) put every sale under "not set", the file having neither`, async () => {
    for (const [className, refKey, labelKey] of [
      ['RapportVentesCaisse', 'terminalId', 'terminal'],
      ['RapportVentesVendeur', 'sellerCode', 'seller'],
    ] as const) {
      await each(className, 'Daily', 400, (d, from, to, s) => {
        const f = vatRates(s.tickets, from, to, s.rate).rows[0] as {
          netSales: number;
          netSalesExclTax: number;
        };
        const tickets = s.tickets.filter(
          (t) => t.kind === 'SALE' && fiscalDate(t) >= from && fiscalDate(t) <= to,
        ).length;
        const row = {
          siteId: s.site.id,
          site: s.site.name,
          [refKey]: null,
          [labelKey]: EN['report.notSet'],
          tickets,
          netSales: f.netSales,
          netSalesExclTax: f.netSalesExclTax,
          averageTicket: average(f.netSales, tickets),
          share: share(f.netSales, f.netSales),
        };
        expectRows(d.rows, [row], `${className} ${from}..${to}`);
      });
    }
  });

  it(`${label}: payment reports (RapportVentesPaiement, RapportFinance) show no payment, the file having none`, async () => {
    for (const className of ['RapportVentesPaiement', 'RapportFinance']) {
      await each(className, 'Daily', 400, (d, from, to) => {
        expectRows(d.rows, [], `${className} ${from}..${to}`);
      });
    }
  });

  if (cancellationsToo) {
    it(`${label}: cancellations (RapportAnnulations) per fiscal date equal the file's cancellation tickets`, async () => {
      let seen = 0;
      await each('RapportAnnulations', 'Daily', 400, (d, from, to, s) => {
        const want = cancellations(byDate(s.tickets), from, to, s.site);
        seen += want.reduce((a, r) => a + r.afterPaymentTickets, 0);
        expectRows(d.rows, want, `cancellations ${from}..${to}`);
        expect(d.totals).toMatchObject({
          afterPaymentTickets: want.reduce((a, r) => a + r.afterPaymentTickets, 0),
          afterPaymentAmount: want.reduce((a, r) => a + r.afterPaymentAmount, 0),
          beforePaymentLines: 0,
        });
      });
      expect(seen).toBe(data().tickets.filter((t) => t.kind === 'CANCELLATION').length);
    });
  }
}

/**
 * Registers one test asking several families for explicit fiscal dates (datefiscales[]: every
 * 13th date of the data, at most 31) instead of a range, and comparing them with the figures of
 * those dates only.
 */
export function proveFiscalDates(label: string, data: () => ProvenSet, report: () => ReportFn): void {
  it(`${label}: families asked for explicit fiscal dates (datefiscales[]) equal the file on those dates only`, async () => {
    const all = data();
    const dates = [...new Set(all.tickets.map(fiscalDate))]
      .sort()
      .filter((_, i) => i % 13 === 0)
      .slice(0, 31);
    const picked = new Set(dates);
    const s: ProvenSet = {
      ...all,
      tickets: all.tickets.filter((t) => picked.has(fiscalDate(t))),
      lines: all.lines.filter((l) => picked.has(fiscalDate(l.ticket))),
    };
    const from = dates[0] as string;
    const to = dates.at(-1) as string;
    const extra = dates.map((d) => `&datefiscales[]=${d}`).join('');
    const ask = (className: string) => report()(className, 'Daily', from, to, s.site.id, extra);
    const days = byDate(s.tickets);
    const sales = salesByDay(days, from, to);
    expectRows(
      (await ask('RapportVentes')).rows.map(({ siteId: _i, site: _s, ...r }) => r),
      sales.rows,
      'sales on the picked dates',
    );
    expect(sales.rows).toHaveLength(dates.length);
    const hours = hourly(s.tickets, from, to);
    const gotHours = await ask('RapportVentesHoraire');
    expectRows(gotHours.rows, hours.rows, 'hours on the picked dates');
    expect(gotHours.totals).toEqual(hours.totals);
    const fam = families(s.lines, from, to);
    expectRows(
      (await ask('RapportVentesFamille')).rows,
      fam.rows.map((r) => ({ ...r, family: r.family ?? EN['report.notSet'] })),
      'families on the picked dates',
    );
    expectRows(
      (await ask('RapportVentesTva')).rows,
      vatRates(s.tickets, from, to, s.rate).rows,
      'VAT rates on the picked dates',
    );
    expectRows(
      (await ask('RapportVentesCouverts')).rows,
      covers(days, from, to, s.site).rows,
      'covers on the picked dates',
    );
    expectRows(
      (await ask('RapportTva')).rows,
      vatBreakdown(days, from, to, s.site, s.rate),
      'VAT breakdown on the picked dates',
    );
    expectRows(
      (await ask('RapportZ')).rows.map(({ item: _l, ...r }) => r),
      zItems(days, from, to, s.site, s.rate),
      'Z on the picked dates',
    );
    expectRows(
      (await ask('RapportTickets')).rows,
      ticketList(s.tickets, from, to, s.site).map((r) => ({ ...r, kind: EN[`report.ticketKind.${r.kind}`] })),
      'tickets on the picked dates',
    );
    expectRows(
      (await ask('RapportAnnulations')).rows,
      cancellations(days, from, to, s.site),
      'cancellations on the picked dates',
    );
  });
}

export type DistributionFn = (
  type: string,
  statut: string,
  from: string,
  to: string,
  siteId: number,
) => Promise<DistributionAnswer>;

const STATUT_KINDS: Record<string, readonly string[]> = {
  VENTE: ['SALE', 'RETURN'],
  ANNULATION: ['CANCELLATION'],
  TOUS: ['SALE', 'RETURN', 'CANCELLATION'],
};

/** A VAT rate fraction as PostgreSQL's trim_scale prints it (`0.2`, `0.055`). */
const rateKey = (rate: number) => String(rate);

/**
 * Registers one test asking bo/getRepartition for every dimension the file feeds and every
 * statut, over 400-day windows, and comparing each part's key, tickets, amount and share with
 * the file: tickets and amounts of the statut's kinds (contract/distributions.ts), lines' parts
 * counting each ticket once per part; parts by amount, largest first.
 */
export function proveDistributions(
  label: string,
  data: () => ProvenSet,
  distribution: () => DistributionFn,
): void {
  it(`${label}: distributions (bo/getRepartition) by family, VAT rate, hour, terminal and seller equal the file for each statut`, async () => {
    const s = data();
    const { first, last } = span(s.tickets);
    for (const [from, to] of windows(first, last, 400)) {
      for (const statut of ['TOUS', 'VENTE', 'ANNULATION']) {
        const kinds = STATUT_KINDS[statut] as readonly string[];
        const keep = (t: ExpTicket) => kinds.includes(t.kind) && fiscalDate(t) >= from && fiscalDate(t) <= to;
        const tickets = s.tickets.filter(keep);
        const lines = s.lines.filter((l) => keep(l.ticket));
        const parts = {
          FAMILLE: lines.map((l) => ({ key: l.family ?? '', ticket: l.ticket, amount: l.amount })),
          TVA: lines.map((l) => ({ key: rateKey(s.rate), ticket: l.ticket, amount: l.amount })),
          TRANCHE: tickets.map((t) => ({ key: t.first.slice(11, 13), ticket: t, amount: t.net })),
          CAISSE: tickets.map((t) => ({ key: '', ticket: t, amount: t.net })),
          VENDEUR: tickets.map((t) => ({ key: '', ticket: t, amount: t.net })),
        };
        for (const [type, items] of Object.entries(parts)) {
          const acc = new Map<string, { tickets: Set<ExpTicket>; amount: bigint }>();
          for (const item of items) {
            const a = acc.get(item.key) ?? { tickets: new Set(), amount: 0n };
            a.tickets.add(item.ticket);
            a.amount += item.amount;
            acc.set(item.key, a);
          }
          const total = [...acc.values()].reduce((x, a) => x + Number(a.amount), 0);
          const want = [...acc.entries()]
            .map(([key, a]) => ({
              key,
              tickets: a.tickets.size,
              amountCents: Number(a.amount),
              share: total === 0 ? 0 : Number(a.amount) / total,
            }))
            .sort((a, b) => b.amountCents - a.amountCents || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
          const got = await distribution()(type, statut, from, to, s.site.id);
          expect(got.currency).toBe(s.currency);
          expectRows(
            got.rows.map(({ label: _l, ...r }) => r),
            want,
            `${type} ${statut} ${from}..${to}`,
          );
          expect(got.totalCents).toBe(total);
        }
      }
    }
  });
}
