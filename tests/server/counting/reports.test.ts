import { beforeAll, describe, expect, it } from 'vitest';
import type { CashCountBody, SafeCountBody } from '../../../src/contract/counting.ts';
import { DAY, PASSWORD, setUpCounting } from './seed.ts';
import { datasetAnswer } from '../../helpers/dataset-answer.ts';

const ctx = setUpCounting();
let reader: { id: number; headers: Record<string, string> };

const cash = (caisse: number, over: Partial<CashCountBody> = {}): CashCountBody => ({
  site: ctx.paris,
  dateFiscale: DAY,
  caisse,
  cash: [{ denominationCents: 1000, quantity: 1 }],
  chequesCents: 3000,
  mealVouchersCents: 900,
  cardSlipsCents: null,
  ...over,
});

const safe = (over: Partial<SafeCountBody> = {}): SafeCountBody => ({
  site: ctx.paris,
  dateFiscale: DAY,
  openingCents: 10000,
  depositsCents: 5000,
  withdrawalsCents: 2000,
  contents: [
    { denominationCents: 5000, quantity: 2 },
    { denominationCents: 1000, quantity: 3 },
  ],
  ...over,
});

beforeAll(async () => {
  const post = (url: string, payload: object) =>
    ctx.t.app.inject({
      method: 'POST',
      url: `/api/${url}?id=${ctx.manager.id}`,
      headers: ctx.manager.headers,
      payload,
    });
  await post('bo/comptage/save', cash(1));
  await post(
    'bo/comptage/save',
    cash(1, {
      cash: [
        { denominationCents: 1000, quantity: 1 },
        { denominationCents: 200, quantity: 2 },
      ],
    }),
  );
  await post(
    'bo/comptage/save',
    cash(2, { cash: [{ denominationCents: 500, quantity: 1 }], chequesCents: 0, mealVouchersCents: 0 }),
  );
  await post('bo/comptage/save', cash(1, { dateFiscale: '2026-03-20' }));
  await post('coffre/save', safe());
  await post('coffre/save', safe({ comment: 'v2', withdrawalsCents: 0 }));
  const id = await ctx.t.createUser({
    login: 'reader',
    password: PASSWORD,
    droits: ['RAPPORTS'],
    restaurantIds: [ctx.paris],
  });
  reader = { id, headers: await ctx.t.signIn('reader', PASSWORD) };
});

function report(className: string, format: string, extra = '') {
  return ctx.t.app.inject({
    url: `/api/bo/getReport?id=${reader.id}&rapportClassName=${className}&format=${format}&language=fr&dateDebut=${DAY}&dateFin=${DAY}&sites[]=${ctx.paris}${extra}`,
    headers: reader.headers,
  });
}

describe('counting report classes', () => {
  it('both classes are offered by bo/rapport/metrics', async () => {
    const res = await ctx.t.app.inject({
      url: `/api/bo/rapport/metrics?id=${reader.id}&language=en`,
      headers: reader.headers,
    });
    const titles = res.json<{ editions: { className: string; localisedTitle: string }[] }>().editions;
    expect(titles).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ className: 'RapportComptageCaisses', localisedTitle: 'Cash counts' }),
        expect.objectContaining({ className: 'RapportComptageCoffre', localisedTitle: 'Safe counts' }),
      ]),
    );
  });

  it('RapportComptageCaisses lists the latest count of each terminal with its variances', async () => {
    const res = await report('RapportComptageCaisses', 'JSON');
    expect(res.statusCode).toBe(200);
    const data = datasetAnswer(res);
    expect(data.rows).toEqual([
      {
        fiscalDate: DAY,
        site: 'Paris',
        terminal: 1,
        countVersion: 2,
        countedBy: 'manager',
        expectedCash: 1350,
        countedCash: 1400,
        cashVariance: 50,
        chequesVariance: 0,
        mealVouchersVariance: 0,
        cardSlipsVariance: null,
      },
      {
        fiscalDate: DAY,
        site: 'Paris',
        terminal: 2,
        countVersion: 1,
        countedBy: 'manager',
        expectedCash: 700,
        countedCash: 500,
        cashVariance: -200,
        chequesVariance: 0,
        mealVouchersVariance: 0,
        cardSlipsVariance: null,
      },
    ]);
    expect(data.totals).toMatchObject({
      expectedCash: 2050,
      countedCash: 1900,
      cashVariance: -150,
      cardSlipsVariance: 0,
    });
    expect(data.columns.find((c) => c.key === 'cashVariance')).toEqual({
      key: 'cashVariance',
      label: 'Écart espèces',
      type: 'money',
    });
  });

  it('RapportComptageCaisses keeps to the chosen terminals', async () => {
    const res = await report('RapportComptageCaisses', 'JSON', '&tpv[]=2');
    expect(datasetAnswer(res).rows.map((r) => r.terminal)).toEqual([2]);
  });

  it('RapportComptageCoffre lists the latest safe count of each day', async () => {
    const res = await report('RapportComptageCoffre', 'JSON');
    expect(res.statusCode).toBe(200);
    expect(datasetAnswer(res).rows).toEqual([
      {
        fiscalDate: DAY,
        site: 'Paris',
        countVersion: 2,
        countedBy: 'manager',
        openingFloat: 10000,
        deposits: 5000,
        withdrawals: 0,
        expectedContent: 15000,
        countedContent: 13000,
        variance: -2000,
        countersignedBy: '',
      },
    ]);
  });

  it('both render as PDF and CSV', async () => {
    for (const className of ['RapportComptageCaisses', 'RapportComptageCoffre']) {
      const pdf = await report(className, 'PDF');
      expect(pdf.statusCode).toBe(200);
      expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
      const csv = await report(className, 'CSV');
      expect(csv.statusCode).toBe(200);
      expect(csv.body).toContain('Paris');
    }
  });
});
