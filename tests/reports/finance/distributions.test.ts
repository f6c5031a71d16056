import { describe, expect, it } from 'vitest';
import type { DistributionAnswer } from '../../../src/contract/distributions.ts';
import type { AuthHeaders } from '../../helpers/app.ts';
import { setUpReportApp } from '../../helpers/report-app.ts';
import { LYON, MANAGER } from '../../helpers/report-users.ts';
import { type FxTicket, loadFixture } from '../operations/fixture.ts';

const api = setUpReportApp({
  password: 'Rep4rtitions!-secret',
  users: { manager: MANAGER, lyon: LYON },
  load: loadFixture,
});

function getRepartition(headers: AuthHeaders, id: number, query: string) {
  return api.get(headers, `bo/getRepartition?id=${id}&${query}`);
}

const PERIOD = 'dateDebut=2026-11-01&dateFin=2026-11-05';

/** Expected parts: key → { tickets (distinct), amount }, from the fixture's rows. */
function expectedParts(
  keep: (k: FxTicket) => boolean,
  contributions: (k: FxTicket) => Array<[key: string, amount: number]>,
): Map<string, { tickets: Set<number>; amount: number }> {
  const parts = new Map<string, { tickets: Set<number>; amount: number }>();
  for (const k of api.tickets.filter((x) => !x.trainingMode && keep(x))) {
    for (const [key, amount] of contributions(k)) {
      const p = parts.get(key) ?? { tickets: new Set<number>(), amount: 0 };
      p.tickets.add(k.ticketId);
      p.amount += amount;
      parts.set(key, p);
    }
  }
  return parts;
}

function check(answer: DistributionAnswer, parts: Map<string, { tickets: Set<number>; amount: number }>) {
  const total = [...parts.values()].reduce((s, p) => s + p.amount, 0);
  expect(answer.totalCents).toBe(total);
  const got = new Map(answer.rows.map((r) => [r.key, r]));
  expect([...got.keys()].sort()).toEqual([...parts.keys()].sort());
  for (const [key, p] of parts) {
    expect(got.get(key), key).toMatchObject({ tickets: p.tickets.size, amountCents: p.amount });
    expect(got.get(key)!.share).toBeCloseTo(total === 0 ? 0 : p.amount / total, 12);
  }
  const amounts = answer.rows.map((r) => r.amountCents);
  expect(amounts).toEqual([...amounts].sort((a, b) => b - a));
}

describe('GET bo/getRepartition', () => {
  const both = (k: FxTicket) => [1, 2].includes(k.siteId);

  it('splits every ticket by payment method, with translated labels and shares', async () => {
    const res = await getRepartition(
      api.manager.headers,
      api.manager.id,
      `typeRepartition=PAIEMENT&site=1,2&${PERIOD}`,
    );
    expect(res.statusCode).toBe(200);
    const answer = res.json<DistributionAnswer>();
    check(
      answer,
      expectedParts(both, (k) => k.payments.map((p) => [p.method, p.amount])),
    );
    expect(answer.rows.find((r) => r.key === 'MEAL_VOUCHER')?.label).toBe('Titre-restaurant');
    expect(answer).toMatchObject({ typeRepartition: 'PAIEMENT', statut: 'TOUS', currency: 'EUR' });
  });

  it('splits sales and returns (statut VENTE) by family, a line without family under "not set"', async () => {
    const res = await getRepartition(
      api.manager.headers,
      api.manager.id,
      `typeRepartition=FAMILLE&statut=VENTE&site=1,2&${PERIOD}&language=en`,
    );
    const answer = res.json<DistributionAnswer>();
    check(
      answer,
      expectedParts(
        (k) => both(k) && k.kind !== 'CANCELLATION',
        (k) => k.lines.map((l) => [l.family ?? '', l.amount]),
      ),
    );
    expect(answer.rows.find((r) => r.key === '')?.label).toBe('Not set');
  });

  it('splits by VAT rate, terminal, seller and hour of the day', async () => {
    const tva = await getRepartition(
      api.manager.headers,
      api.manager.id,
      `typeRepartition=TVA&site=1,2&${PERIOD}`,
    );
    check(
      tva.json(),
      expectedParts(both, (k) => k.lines.map((l) => [String(l.vatRate), l.amount])),
    );
    const caisse = await getRepartition(
      api.manager.headers,
      api.manager.id,
      `typeRepartition=CAISSE&site=1,2&${PERIOD}`,
    );
    check(
      caisse.json(),
      expectedParts(both, (k) => [[String(k.terminalId), k.total]]),
    );
    expect(caisse.json<DistributionAnswer>().rows.find((r) => r.key === '2')?.label).toBe('Caisse 2');
    const vendeur = await getRepartition(
      api.manager.headers,
      api.manager.id,
      `typeRepartition=VENDEUR&site=1,2&${PERIOD}`,
    );
    check(
      vendeur.json(),
      expectedParts(both, (k) => [[k.sellerCode, k.total]]),
    );
    expect(vendeur.json<DistributionAnswer>().rows.find((r) => r.key === 'S3')?.label).toBe('Chloé');
    const tranche = await getRepartition(
      api.manager.headers,
      api.manager.id,
      `typeRepartition=TRANCHE&site=1,2&${PERIOD}`,
    );
    check(
      tranche.json(),
      expectedParts(both, (k) => [[String(k.localHour).padStart(2, '0'), k.total]]),
    );
    expect(tranche.json<DistributionAnswer>().rows.find((r) => r.key === '23')?.label).toBe('23:00–00:00');
  });

  it('keeps only cancellation tickets for statut ANNULATION, and every site of the scope without site', async () => {
    const res = await getRepartition(
      api.lyon.headers,
      api.lyon.id,
      `typeRepartition=CAISSE&statut=ANNULATION&${PERIOD}`,
    );
    expect(res.statusCode).toBe(200);
    const answer = res.json<DistributionAnswer>();
    check(
      answer,
      expectedParts(
        (k) => k.siteId === 2 && k.kind === 'CANCELLATION',
        (k) => [[String(k.terminalId), k.total]],
      ),
    );
    expect(answer.totalCents).toBeLessThan(0);
  });

  it('answers the errors of SPEC.md §8', async () => {
    const outside = await getRepartition(
      api.lyon.headers,
      api.lyon.id,
      `typeRepartition=CAISSE&site=1&${PERIOD}`,
    );
    expect(outside.statusCode).toBe(403);
    expect(outside.json()).toMatchObject({ code: 'Forbidden' });
    const mixed = await getRepartition(
      api.manager.headers,
      api.manager.id,
      `typeRepartition=CAISSE&site=1,3&${PERIOD}`,
    );
    expect(mixed.json()).toMatchObject({ code: 'mixedCurrencies' });
    const long = await getRepartition(
      api.manager.headers,
      api.manager.id,
      'typeRepartition=CAISSE&site=1&dateDebut=2025-01-01&dateFin=2026-11-05',
    );
    expect(long.statusCode).toBe(400);
    expect(long.json()).toMatchObject({ code: 'MaxReportDays', details: { maxDays: 400 } });
    const backwards = await getRepartition(
      api.manager.headers,
      api.manager.id,
      'typeRepartition=CAISSE&dateDebut=2026-11-05&dateFin=2026-11-01',
    );
    expect(backwards.json()).toMatchObject({ code: 'BadRequest' });
    const badDate = await getRepartition(
      api.manager.headers,
      api.manager.id,
      'typeRepartition=CAISSE&dateDebut=2026-02-30&dateFin=2026-03-01',
    );
    expect(badDate.json()).toMatchObject({ code: 'BadRequest' });
    const badType = await getRepartition(
      api.manager.headers,
      api.manager.id,
      `typeRepartition=ARTICLE&${PERIOD}`,
    );
    expect(badType.statusCode).toBe(400);
    const other = await getRepartition(api.manager.headers, api.lyon.id, `typeRepartition=CAISSE&${PERIOD}`);
    expect(other.statusCode).toBe(403);
  });

  it('answers no rows and a zero total for a period without tickets', async () => {
    const res = await getRepartition(
      api.manager.headers,
      api.manager.id,
      'typeRepartition=PAIEMENT&site=1&dateDebut=2026-06-01&dateFin=2026-06-02',
    );
    expect(res.json()).toMatchObject({ rows: [], totalCents: 0 });
  });
});
