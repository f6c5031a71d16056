import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAYED_HEADER } from '../../src/contract/counting.ts';
import {
  EventConfigurationAnswerSchema,
  type LocalEvent,
  LocalEventSchema,
} from '../../src/contract/events.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { type Chain, seedChain } from './fixtures.ts';

const PASSWORD = 'Correct-Horse1';
const BASE = '/api/withCredentials/collab';

describe('local events (withCredentials/collab/*)', () => {
  let t: TestApp;
  let chain: Chain;
  /** EVENEMENTS on Paris and Lyon. */
  let managerId: number;
  let manager: Record<string, string>;
  /** EVENEMENTS on every site. */
  let chief: Record<string, string>;
  /** RAPPORTS only, on Paris: reads, never writes. */
  let readerId: number;
  let reader: Record<string, string>;

  const concert = (sites: number[], over: Record<string, unknown> = {}) => ({
    typeEvenement: 'CONCERT',
    designation: 'Concert au parc',
    canalVente: 'ALL',
    plu: '',
    typeImpact: 'Positive',
    tauxImpact: 15,
    dateDebut: '2026-06-12',
    dateFin: '2026-06-14',
    perim_affects: sites,
    ...over,
  });
  const add = (body: unknown, headers = manager, extra: Record<string, string> = {}) =>
    t.app.inject({
      method: 'PUT',
      url: `${BASE}/addEvenementLocal`,
      headers: { ...headers, ...extra },
      payload: body as object,
    });
  const change = (body: unknown, headers = manager) =>
    t.app.inject({ method: 'POST', url: `${BASE}/changeEvenementLocal`, headers, payload: body as object });
  const remove = (uuid: string, headers = manager) =>
    t.app.inject({ method: 'DELETE', url: `${BASE}/deleteEvenementLocal?evenement=${uuid}`, headers });
  const read = (id: number, headers: Record<string, string>, query: string) =>
    t.app.inject({ method: 'GET', url: `${BASE}/configurationEvenements?id=${id}&${query}`, headers });
  const listed = async (id: number, headers: Record<string, string>, query: string) => {
    const res = await read(id, headers, query);
    expect(res.statusCode, res.body).toBe(200);
    return EventConfigurationAnswerSchema.parse(res.json()).data.evenements;
  };
  const added = async (body: unknown, headers = manager): Promise<LocalEvent> => {
    const res = await add(body, headers);
    expect(res.statusCode, res.body).toBe(200);
    return LocalEventSchema.parse(res.json());
  };
  const auditOf = async (uuid: string) =>
    (
      await t.database.pool.query<{ action: string; user_id: number; before: unknown; after: unknown }>(
        'SELECT action, user_id, before, after FROM audit_log WHERE target_id = $1 ORDER BY id',
        [uuid],
      )
    ).rows;
  const eventCount = async () =>
    Number((await t.database.pool.query('SELECT count(*) AS n FROM local_events')).rows[0].n);

  beforeAll(async () => {
    t = await createTestApp();
    chain = await seedChain(t.database.pool);
    const { paris, lyon } = chain.sites;
    managerId = await t.createUser({
      login: 'gerant',
      password: PASSWORD,
      droits: ['EVENEMENTS'],
      restaurantIds: [paris, lyon],
    });
    manager = await t.signIn('gerant', PASSWORD);
    await t.createUser({ login: 'chef', password: PASSWORD, droits: ['EVENEMENTS'], allSites: true });
    chief = await t.signIn('chef', PASSWORD);
    readerId = await t.createUser({
      login: 'lecteur',
      password: PASSWORD,
      droits: ['RAPPORTS'],
      restaurantIds: [paris],
    });
    reader = await t.signIn('lecteur', PASSWORD);
  });
  afterAll(async () => {
    await t.close();
  });

  it('adds an event, answers it with its uuid and author, and audits it in the same write', async () => {
    const event = await added(concert([chain.sites.lyon, chain.sites.paris, chain.sites.paris]));
    expect(event).toMatchObject({
      typeEvenement: 'CONCERT',
      designation: 'Concert au parc',
      plu: null,
      tauxImpact: 15,
      dateDebut: '2026-06-12',
      dateFin: '2026-06-14',
      perim_affects: [chain.sites.paris, chain.sites.lyon].sort((a, b) => a - b),
      creePar: 'gerant',
    });
    const audit = await auditOf(event.uuid_evt);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ action: 'event.create', user_id: managerId, before: null });
    expect(audit[0]!.after).toMatchObject({ designation: 'Concert au parc', tauxImpact: 15 });
  });

  it('accepts the other body of SPEC.md §7: { evenement, perim_affects }', async () => {
    const { perim_affects, ...evenement } = concert([chain.sites.paris], { designation: 'Braderie' });
    const event = await added({ evenement, perim_affects });
    expect(event).toMatchObject({ designation: 'Braderie', perim_affects: [chain.sites.paris] });
  });

  it('lists the events overlapping the period on the chosen sites, with the form choices', async () => {
    await added(
      concert([chain.sites.lyon], {
        designation: 'Marché de Lyon',
        dateDebut: '2026-07-01',
        dateFin: '2026-07-01',
      }),
    );
    const res = await read(
      managerId,
      manager,
      `sites=${chain.sites.paris}&dateDebut=2026-06-14&dateFin=2026-07-31`,
    );
    const answer = EventConfigurationAnswerSchema.parse(res.json()).data;
    expect(answer.typesImpact).toEqual(['Positive', 'Negative']);
    expect(answer.typesEvenement).toContain('CONCERT');
    expect(answer.canauxVente).toContain('TAKEAWAY');
    // Lyon's market is not on Paris; the concert (Paris + Lyon) and the Braderie (Paris) overlap the 14th.
    expect(answer.evenements.map((e) => e.designation)).toEqual(['Braderie', 'Concert au parc']);
    const july = await listed(managerId, manager, 'dateDebut=2026-06-15&dateFin=2026-07-31');
    expect(july.map((e) => e.designation)).toEqual(['Marché de Lyon']);
  });

  it('shows a reader only the sites of their own scope, and lets them read but not write', async () => {
    const events = await listed(readerId, reader, 'dateDebut=2026-06-01&dateFin=2026-06-30');
    const concertSeen = events.find((e) => e.designation === 'Concert au parc');
    expect(concertSeen?.perim_affects).toEqual([chain.sites.paris]);
    const refused = await add(concert([chain.sites.paris]), reader);
    expect(refused.statusCode).toBe(403);
  });

  it('refuses a start after the end with dateFinTooEarly at dateFin, writing nothing', async () => {
    const before = await eventCount();
    const res = await add(concert([chain.sites.paris], { dateDebut: '2026-06-20', dateFin: '2026-06-19' }));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'dateFinTooEarly', details: { field: 'dateFin' } });
    expect(await eventCount()).toBe(before);
  });

  it.each([
    [{ designation: '   ' }, 'designation'],
    [{ typeEvenement: 'PICNIC' }, 'typeEvenement'],
    [{ tauxImpact: -1 }, 'tauxImpact'],
    [{ typeImpact: 'Neutral' }, 'typeImpact'],
    [{ dateDebut: '2026-02-30' }, 'dateDebut'],
    [{ perim_affects: [] }, 'perim_affects'],
  ])('refuses %o at its field (400 BadRequest, details.field %s)', async (over, field) => {
    const res = await add(concert([chain.sites.paris], over));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'BadRequest', details: { field } });
  });

  it('names the field inside { evenement } bodies too', async () => {
    const { perim_affects, ...evenement } = concert([chain.sites.paris], { canalVente: 'BOAT' });
    const res = await add({ evenement, perim_affects });
    expect(res.json()).toMatchObject({ code: 'BadRequest', details: { field: 'canalVente' } });
  });

  it('refuses an event on a site outside the scope with 403 and the refused sites', async () => {
    const before = await eventCount();
    const res = await add(concert([chain.sites.paris, chain.sites.nantes]));
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'Forbidden', details: { sites: [chain.sites.nantes] } });
    expect(await eventCount()).toBe(before);
    const read403 = await read(
      managerId,
      manager,
      `sites=${chain.sites.nantes}&dateDebut=2026-06-01&dateFin=2026-06-30`,
    );
    expect(read403.statusCode).toBe(403);
  });

  it('changes an event and audits before and after', async () => {
    const event = await added(concert([chain.sites.paris], { designation: 'Travaux' }));
    const res = await change({
      ...event,
      designation: 'Travaux rue de Rivoli',
      typeEvenement: 'ROADWORKS',
      typeImpact: 'Negative',
      tauxImpact: 12.5,
      plu: 'PLU-42',
      perim_affects: [chain.sites.lyon],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(LocalEventSchema.parse(res.json())).toMatchObject({
      uuid_evt: event.uuid_evt,
      designation: 'Travaux rue de Rivoli',
      typeImpact: 'Negative',
      tauxImpact: 12.5,
      plu: 'PLU-42',
      perim_affects: [chain.sites.lyon],
    });
    const audit = await auditOf(event.uuid_evt);
    expect(audit.map((a) => a.action)).toEqual(['event.create', 'event.save']);
    expect(audit[1]!.before).toMatchObject({ designation: 'Travaux', perim_affects: [chain.sites.paris] });
    expect(audit[1]!.after).toMatchObject({
      designation: 'Travaux rue de Rivoli',
      perim_affects: [chain.sites.lyon],
    });
  });

  it('refuses a change without uuid, of an unknown uuid, or with start after end', async () => {
    const noUuid = await change(concert([chain.sites.paris]));
    expect(noUuid.json()).toMatchObject({ code: 'BadRequest', details: { field: 'uuid_evt' } });
    const unknown = await change(concert([chain.sites.paris], { uuid_evt: randomUUID() }));
    expect(unknown.statusCode).toBe(404);
    const event = await added(concert([chain.sites.paris], { designation: 'Salon' }));
    const late = await change({ ...event, dateFin: '2026-06-01' });
    expect(late.json()).toMatchObject({ code: 'dateFinTooEarly', details: { field: 'dateFin' } });
  });

  it("refuses to change or delete an event that also touches another manager's site", async () => {
    const shared = await added(
      concert([chain.sites.paris, chain.sites.nantes], { designation: 'Grève' }),
      chief,
    );
    const changed = await change({ ...shared, perim_affects: [chain.sites.paris] });
    expect(changed.statusCode).toBe(403);
    expect((await remove(shared.uuid_evt)).statusCode).toBe(403);
    const elsewhere = await added(concert([chain.sites.nantes], { designation: 'Foire' }), chief);
    // An event on no site of the caller's scope is not told to exist.
    expect((await remove(elsewhere.uuid_evt)).statusCode).toBe(404);
  });

  it('deletes an event, audits it, and answers 404 the second time', async () => {
    const event = await added(concert([chain.sites.paris], { designation: 'Éphémère' }));
    const res = await remove(event.uuid_evt);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ uuid_evt: event.uuid_evt });
    const rows = await t.database.pool.query('SELECT 1 FROM local_event_sites WHERE event_uuid = $1', [
      event.uuid_evt,
    ]);
    expect(rows.rowCount).toBe(0);
    expect((await auditOf(event.uuid_evt)).map((a) => a.action)).toEqual(['event.create', 'event.remove']);
    expect((await remove(event.uuid_evt)).statusCode).toBe(404);
  });

  it('writes an add once when it is replayed with the same Idempotency-Key', async () => {
    const key = randomUUID();
    const body = concert([chain.sites.paris], { designation: 'Rejoué' });
    const first = await add(body, manager, { [IDEMPOTENCY_KEY_HEADER]: key });
    const again = await add(body, manager, { [IDEMPOTENCY_KEY_HEADER]: key });
    expect(first.statusCode).toBe(200);
    expect(again.statusCode).toBe(200);
    expect(again.headers[IDEMPOTENT_REPLAYED_HEADER.toLowerCase()]).toBe('true');
    expect(again.json()).toEqual(first.json());
    const rows = await t.database.pool.query("SELECT 1 FROM local_events WHERE designation = 'Rejoué'");
    expect(rows.rowCount).toBe(1);
  });

  it('refuses a read period that is upside down, not a date, or too long', async () => {
    const upside = await read(managerId, manager, 'dateDebut=2026-06-10&dateFin=2026-06-01');
    expect(upside.json()).toMatchObject({ code: 'dateFinTooEarly' });
    const notADate = await read(managerId, manager, 'dateDebut=2026-13-01&dateFin=2026-12-01');
    expect(notADate.statusCode).toBe(400);
    const long = await read(managerId, manager, 'dateDebut=2020-01-01&dateFin=2026-01-01');
    expect(long.json()).toMatchObject({ code: 'BadRequest', details: { maxDays: 400 } });
  });
});
