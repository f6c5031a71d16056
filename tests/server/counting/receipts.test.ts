import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Receipt, ReceiptComplementsBody } from '../../../src/contract/counting.ts';
import { pdfText } from './pdf-text.ts';
import { DAY, setUpCounting } from './seed.ts';

const ctx = setUpCounting();

const who = 'codeVendeur=01&codeManager=M7&nomVendeur=Alice&nomManager=Marc';

function create(complements: ReceiptComplementsBody, query: string, key?: string) {
  return ctx.t.app.inject({
    method: 'POST',
    url: `/api/bo/documentsManager/createDocument?${query}`,
    headers: key ? { ...ctx.manager.headers, 'idempotency-key': key } : ctx.manager.headers,
    payload: complements,
  });
}

describe('manager receipts', () => {
  let first: Receipt;

  it('a manager writes a receipt with seller and manager codes and complements', async () => {
    const res = await create(
      { montantCents: 12050, motif: 'Remise espèces', commentaire: 'service du midi' },
      `${who}&site=${ctx.paris}&dateFiscale=${DAY}`,
    );
    expect(res.statusCode).toBe(200);
    first = res.json<Receipt>();
    expect(first).toMatchObject({
      restaurantId: ctx.paris,
      dateFiscale: DAY,
      numVendeur: '01',
      libVendeur: 'Alice',
      codeManager: 'M7',
      nomManager: 'Marc',
      complements: { montantCents: 12050, motif: 'Remise espèces', commentaire: 'service du midi' },
      version: 1,
      createdBy: { login: 'manager' },
    });
  });

  it("the day's receipts come back in the `response` field", async () => {
    const res = await ctx.t.app.inject({
      url: `/api/bo/documentsManager/readRecusManager?dateFiscale=${DAY}`,
      headers: ctx.manager.headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json<{ response: Receipt[] }>().response.map((r) => r.id)).toEqual([first.id]);
    const otherDay = await ctx.t.app.inject({
      url: '/api/bo/documentsManager/readRecusManager?dateFiscale=2026-03-03',
      headers: ctx.manager.headers,
    });
    expect(otherDay.json<{ response: Receipt[] }>().response).toEqual([]);
  });

  it('an update replaces the content, raises the version and keeps the previous content in the audit log', async () => {
    const res = await ctx.t.app.inject({
      method: 'POST',
      url: `/api/bo/documentsManager/updateDocument?${who}&site=${ctx.paris}&documentId=${first.id}`,
      headers: ctx.manager.headers,
      payload: { montantCents: 13000, motif: 'Remise espèces' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json<Receipt>()).toMatchObject({
      id: first.id,
      version: 2,
      dateFiscale: DAY,
      complements: { montantCents: 13000, commentaire: '' },
    });
    const read = await ctx.t.app.inject({
      url: `/api/bo/documentsManager/readDocument?documentId=${first.id}`,
      headers: ctx.manager.headers,
    });
    expect(read.json<Receipt>()).toMatchObject({ version: 2, complements: { montantCents: 13000 } });
    const { rows } = await ctx.t.database.pool.query<{ user_id: number; detail: { previous: Receipt } }>(
      `SELECT user_id, detail FROM audit_log WHERE action = 'manager_receipt.update'`,
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.user_id).toBe(ctx.manager.id);
    expect(rows[0]!.detail.previous).toMatchObject({
      id: first.id,
      version: 1,
      complements: { montantCents: 12050 },
    });
  });

  it('the receipt prints as a PDF with the seller, the manager and the amount', async () => {
    const res = await ctx.t.app.inject({
      url: `/api/bo/documentsManager/readDocument?documentId=${first.id}&pdf=true&language=fr`,
      headers: ctx.manager.headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toContain(`recu-${first.id}.pdf`);
    const text = await pdfText(res.rawPayload);
    expect(text).toContain('Reçu manager');
    expect(text).toContain('Alice (01)');
    expect(text).toContain('Marc (M7)');
    expect(text).toContain('130,00 €');
    expect(text).toContain('02/03/2026');
  });

  it('the PDF follows the asked language', async () => {
    const res = await ctx.t.app.inject({
      url: `/api/bo/documentsManager/readDocument?documentId=${first.id}&pdf=true&language=de`,
      headers: ctx.manager.headers,
    });
    expect(await pdfText(res.rawPayload)).toContain('Manager-Quittung');
  });

  it('a receipt sent twice with one key is written once', async () => {
    const key = randomUUID();
    const body = { montantCents: 500, motif: 'Fond de caisse' };
    const a = await create(body, `${who}&site=${ctx.paris}&dateFiscale=2026-03-05`, key);
    const b = await create(body, `${who}&site=${ctx.paris}&dateFiscale=2026-03-05`, key);
    expect(b.headers['idempotent-replayed']).toBe('true');
    expect(b.json<Receipt>().id).toBe(a.json<Receipt>().id);
    const list = await ctx.t.app.inject({
      url: '/api/bo/documentsManager/readRecusManager?dateFiscale=2026-03-05',
      headers: ctx.manager.headers,
    });
    expect(list.json<{ response: Receipt[] }>().response).toHaveLength(1);
  });

  it("without dateFiscale the receipt takes the site's fiscal date of today", async () => {
    const res = await create({ montantCents: 100, motif: 'Test' }, `${who}&site=${ctx.paris}`);
    expect(res.json<Receipt>().dateFiscale).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('receipts outside the scope can neither be written, read nor changed', async () => {
    const nantes = ctx.chain.sites.nantes;
    expect((await create({ montantCents: 1, motif: 'x' }, `${who}&site=${nantes}`)).statusCode).toBe(403);
    const { rows } = await ctx.t.database.pool.query<{ id: number }>(
      `INSERT INTO manager_receipts (site_id, fiscal_date, seller_code, seller_name, manager_code, manager_name,
         complements, created_by, created_by_login, updated_by)
       VALUES ($1, $2, '9', 'Zoé', 'M1', 'Max', '{"montantCents":1,"motif":"x","commentaire":""}', 1, 'x', 1) RETURNING id`,
      [nantes, DAY],
    );
    const id = rows[0]!.id;
    const read = await ctx.t.app.inject({
      url: `/api/bo/documentsManager/readDocument?documentId=${id}`,
      headers: ctx.manager.headers,
    });
    expect(read.statusCode).toBe(404);
    const update = await ctx.t.app.inject({
      method: 'POST',
      url: `/api/bo/documentsManager/updateDocument?${who}&site=${ctx.paris}&documentId=${id}`,
      headers: ctx.manager.headers,
      payload: { montantCents: 2, motif: 'y' },
    });
    expect(update.statusCode).toBe(404);
    const list = await ctx.t.app.inject({
      url: `/api/bo/documentsManager/readRecusManager?dateFiscale=${DAY}`,
      headers: ctx.manager.headers,
    });
    expect(list.json<{ response: Receipt[] }>().response.map((r) => r.restaurantId)).not.toContain(nantes);
  });

  it('a receipt moved to another site keeps its id, author and creation time, and its previous content is audited', async () => {
    const lyon = ctx.chain.sites.lyon;
    const created = (
      await create(
        { montantCents: 700, motif: 'Remise espèces' },
        `${who}&site=${ctx.paris}&dateFiscale=2026-03-09`,
      )
    ).json<Receipt>();
    const update = (site: string) =>
      ctx.t.app.inject({
        method: 'POST',
        url: `/api/bo/documentsManager/updateDocument?${who}${site}&documentId=${created.id}`,
        headers: ctx.manager.headers,
        payload: { montantCents: 750, motif: 'Remise espèces' },
      });
    const moved = await update(`&site=${lyon}`);
    expect(moved.statusCode).toBe(200);
    expect(moved.json<Receipt>()).toMatchObject({
      id: created.id,
      restaurantId: lyon,
      dateFiscale: '2026-03-09',
      version: 2,
      complements: { montantCents: 750 },
      createdBy: created.createdBy,
      createdAt: created.createdAt,
    });
    const list = await ctx.t.app.inject({
      url: '/api/bo/documentsManager/readRecusManager?dateFiscale=2026-03-09',
      headers: ctx.manager.headers,
    });
    expect(list.json<{ response: Receipt[] }>().response.map((r) => [r.id, r.restaurantId])).toEqual([
      [created.id, lyon],
    ]);
    const { rows } = await ctx.t.database.pool.query<{ detail: { previous: Receipt } }>(
      `SELECT detail FROM audit_log WHERE action = 'manager_receipt.update' AND (detail->'previous'->>'id')::bigint = $1`,
      [created.id],
    );
    expect(rows.map((r) => [r.detail.previous.restaurantId, r.detail.previous.version])).toEqual([
      [ctx.paris, 1],
    ]);

    // Changed again where it now is: the same receipt, one version more.
    const again = await update('');
    expect(again.json<Receipt>()).toMatchObject({ id: created.id, restaurantId: lyon, version: 3 });
  });

  it('a receipt without a reason or with a negative amount is refused', async () => {
    expect((await create({ montantCents: 100, motif: '' }, `${who}&site=${ctx.paris}`)).statusCode).toBe(400);
    expect((await create({ montantCents: -1, motif: 'x' }, `${who}&site=${ctx.paris}`)).statusCode).toBe(400);
  });
});
