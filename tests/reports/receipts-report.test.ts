/**
 * The receipts report class (`RapportRecus`, SPEC.md §1 "receipts"): manager receipts written
 * through bo/documentsManager come out of bo/getReport, latest version only, filtered by site,
 * period and seller, with the total amount, in every format.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { DAY, PASSWORD, seedCounting } from '../server/counting/seed.ts';
import { datasetAnswer } from '../helpers/dataset-answer.ts';

let t: TestApp;
let s: Awaited<ReturnType<typeof seedCounting>>;
let paris: number;
let reader: { id: number; headers: Record<string, string> };

async function writeReceipt(query: Record<string, string>, complements: object, documentId?: number) {
  const params = new URLSearchParams({ id: String(s.manager.id), ...query });
  if (documentId !== undefined) params.set('documentId', String(documentId));
  const action = documentId === undefined ? 'createDocument' : 'updateDocument';
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/bo/documentsManager/${action}?${params}`,
    headers: s.manager.headers,
    payload: complements,
  });
  expect(res.statusCode).toBe(200);
  return res.json<{ id: number }>().id;
}

beforeAll(async () => {
  t = await createTestApp();
  s = await seedCounting(t);
  paris = s.chain.sites.paris;
  const lyon = s.chain.sites.lyon;
  const who = (codeVendeur: string, nomVendeur: string, site: number, dateFiscale: string) => ({
    codeVendeur,
    nomVendeur,
    codeManager: 'M1',
    nomManager: 'Claire Martin',
    site: String(site),
    dateFiscale,
  });
  const first = await writeReceipt(who('V7', 'Léa', paris, DAY), {
    montantCents: 12050,
    motif: 'Remise espèces',
  });
  // Corrected afterwards: the report shows version 2 only.
  await writeReceipt(
    who('V7', 'Léa', paris, DAY),
    { montantCents: 12500, motif: 'Remise espèces', commentaire: 'recompté' },
    first,
  );
  await writeReceipt(who('V9', 'Hugo', paris, DAY), { montantCents: 3000, motif: 'Avance' });
  await writeReceipt(who('V9', 'Hugo', paris, '2026-03-05'), { montantCents: 999, motif: 'Hors période' });
  await writeReceipt(who('V1', 'Zoé', lyon, DAY), { montantCents: 4000, motif: 'Autre site' });
  const id = await t.createUser({
    login: 'reader',
    password: PASSWORD,
    droits: ['RAPPORTS'],
    restaurantIds: [paris],
  });
  reader = { id, headers: await t.signIn('reader', PASSWORD) };
});
afterAll(async () => {
  await t.close();
});

function report(format: string, extra = '') {
  return t.app.inject({
    url: `/api/bo/getReport?id=${reader.id}&rapportClassName=RapportRecus&format=${format}&language=fr&dateDebut=${DAY}&dateFin=${DAY}&sites[]=${paris}${extra}`,
    headers: reader.headers,
  });
}

describe('receipts report', () => {
  it('is offered by bo/rapport/metrics with its translated title', async () => {
    const res = await t.app.inject({
      url: `/api/bo/rapport/metrics?id=${reader.id}&language=de`,
      headers: reader.headers,
    });
    const editions = res.json<{ editions: { className: string; localisedTitle: string }[] }>().editions;
    expect(editions).toContainEqual(
      expect.objectContaining({ className: 'RapportRecus', localisedTitle: 'Manager-Belege' }),
    );
  });

  it('lists each receipt of the site and period in its latest version, with the total amount', async () => {
    const res = await report('JSON');
    expect(res.statusCode).toBe(200);
    const data = datasetAnswer(res);
    expect(data.columns.map((c) => c.label)).toEqual([
      'Date fiscale',
      'Site',
      'N° reçu',
      'Vendeur',
      'Manager',
      'Motif',
      'Montant',
      'Commentaire',
      'Version',
    ]);
    expect(data.rows).toEqual([
      expect.objectContaining({
        fiscalDate: DAY,
        site: 'Paris',
        seller: 'V7 – Léa',
        manager: 'Claire Martin',
        reason: 'Remise espèces',
        amount: 12500,
        comment: 'recompté',
        version: 2,
      }),
      expect.objectContaining({
        fiscalDate: DAY,
        site: 'Paris',
        seller: 'V9 – Hugo',
        reason: 'Avance',
        amount: 3000,
        comment: '',
        version: 1,
      }),
    ]);
    expect(data.totals).toMatchObject({ amount: 15500 });
  });

  it('keeps only the chosen sellers', async () => {
    const data = datasetAnswer(await report('JSON', '&vendeurs=V9'));
    expect(data.rows.map((r) => r.seller)).toEqual(['V9 – Hugo']);
    expect(data.totals).toMatchObject({ amount: 3000 });
  });

  it('comes as CSV with French separators, and as PDF', async () => {
    const csv = await report('CSV');
    expect(csv.statusCode).toBe(200);
    const text = csv.body.replace(/^\uFEFF/, '');
    expect(text.split(/\r?\n/)[0]).toBe(
      'Date fiscale;Site;N° reçu;Vendeur;Manager;Motif;Montant;Commentaire;Version',
    );
    expect(text).toContain('125,00');
    const pdf = await report('PDF');
    expect(pdf.statusCode).toBe(200);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('refuses an operation it does not know', async () => {
    const res = await report('JSON', '&operation=ANNULATION');
    expect(res.statusCode).toBe(400);
  });
});
