/**
 * Ticket search and detail (bo/tickets/search, bo/tickets/detail) on a hand-made chain whose
 * tickets are kept in memory, so every expectation is computed here from the rows themselves.
 */
import { TZDate } from '@date-fns/tz';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  TICKET_CRITERIA,
  TICKET_SEARCH_MAX_DAYS,
  type TicketCriterion,
  TicketDetailSchema,
  TicketSearchAnswerSchema,
} from '../../src/contract/tickets.ts';
import { CLIENT_HEADER, CLIENT_HEADER_VALUE, ConnexionAnswerSchema } from '../../src/contract/api.ts';
import { type AuthHeaders, basic, createTestApp, type TestApp } from '../helpers/app.ts';

const PASSWORD = 'Tickets!-secret1';

interface FixtureLine {
  article: string;
  quantity: number;
  unitPriceCents: number;
  amountCents: number;
  corrected: boolean;
}
interface FixtureTicket {
  siteId: number;
  ticketId: number;
  fiscalDate: string;
  hour: number;
  minute: number;
  openedAt: string;
  terminalId: number;
  sellerCode: string;
  kind: 'SALE' | 'RETURN' | 'CANCELLATION';
  employeeMeal: boolean;
  trainingMode: boolean;
  totalCents: number;
  lines: FixtureLine[];
  payments: [string, number][];
}

const SITES = [
  { id: 1, libelle: 'Paris Opéra', timeZone: 'Europe/Paris', currency: 'EUR', days: 5, perDay: 30 },
  { id: 2, libelle: 'Lyon Part-Dieu', timeZone: 'Europe/Paris', currency: 'EUR', days: 2, perDay: 12 },
  { id: 3, libelle: 'London Soho', timeZone: 'Europe/London', currency: 'GBP', days: 1, perDay: 6 },
] as const;

/** The chain's tickets: every 10th kind of ticket is special (see the `k % 10` cases). */
function fixtureTickets(): FixtureTicket[] {
  const out: FixtureTicket[] = [];
  let ticketId = 5000;
  for (const site of SITES) {
    for (let d = 1; d <= site.days; d++) {
      const fiscalDate = `2026-10-0${d}`;
      for (let k = 0; k < site.perDay; k++) {
        const special = k % 10;
        const kind = special === 3 ? 'CANCELLATION' : special === 9 ? 'RETURN' : 'SALE';
        const employeeMeal = special === 5;
        const price = employeeMeal ? 0 : 100 + ((k * 379 + d * 53 + site.id * 11) % 4900);
        const sign = kind === 'SALE' ? 1 : -1;
        const total = sign * price;
        const lines: FixtureLine[] = [
          { article: 'Café', quantity: sign, unitPriceCents: price, amountCents: total, corrected: false },
        ];
        if (special === 7) {
          lines.push({ article: 'Bière', quantity: 1, unitPriceCents: 650, amountCents: 0, corrected: true });
        }
        const payments: [string, number][] = employeeMeal
          ? []
          : special === 7
            ? [
                ['CARD', total - Math.floor(total / 3)],
                ['CASH', Math.floor(total / 3)],
              ]
            : [[special === 3 ? 'CASH' : 'CARD', total]];
        const hour = 8 + (k % 15);
        const minute = (k * 7 + d) % 60;
        const [y, m, day] = fiscalDate.split('-').map(Number) as [number, number, number];
        out.push({
          siteId: site.id,
          ticketId: ticketId++,
          fiscalDate,
          hour,
          minute,
          openedAt: new Date(new TZDate(y, m - 1, day, hour, minute, site.timeZone).getTime()).toISOString(),
          terminalId: 1 + (k % 2),
          sellerCode: k % 3 === 0 ? 'V02' : 'V01',
          kind,
          employeeMeal,
          trainingMode: k % 13 === 12,
          totalCents: total,
          lines,
          payments,
        });
      }
    }
  }
  return out;
}

async function loadFixture(t: TestApp, tickets: FixtureTicket[]): Promise<void> {
  const { pool } = t.database;
  await pool.query(
    `INSERT INTO companies (id, raison_sociale) VALUES (1, 'Brasserie du Nord SAS'), (2, 'Counter UK Ltd')`,
  );
  for (const s of SITES) {
    await pool.query(
      'INSERT INTO sites (id, libelle, company_id, time_zone, currency) VALUES ($1, $2, $3, $4, $5)',
      [s.id, s.libelle, s.id === 3 ? 2 : 1, s.timeZone, s.currency],
    );
    await pool.query(
      `INSERT INTO terminals (site_id, terminal_id, libelle) VALUES ($1, 1, 'Caisse 1'), ($1, 2, 'Caisse bar')`,
      [s.id],
    );
    await pool.query(
      `INSERT INTO sellers (site_id, code, nom) VALUES ($1, 'V01', 'Alice'), ($1, 'V02', 'Bob')`,
      [s.id],
    );
  }
  await pool.query(
    `INSERT INTO tickets (site_id, ticket_id, fiscal_date, opened_at, terminal_id, seller_code, kind, employee_meal,
                          training_mode, total_cents, total_excl_cents, tax_cents, source, source_ref)
     SELECT a, b, c, d, e, f, g, h, i, j, round(j / 1.1), j - round(j / 1.1), 'test', 'T-' || b
       FROM unnest($1::int[], $2::bigint[], $3::date[], $4::timestamptz[], $5::int[], $6::text[], $7::text[],
                   $8::boolean[], $9::boolean[], $10::bigint[]) AS x(a, b, c, d, e, f, g, h, i, j)`,
    [
      tickets.map((k) => k.siteId),
      tickets.map((k) => k.ticketId),
      tickets.map((k) => k.fiscalDate),
      tickets.map((k) => k.openedAt),
      tickets.map((k) => k.terminalId),
      tickets.map((k) => k.sellerCode),
      tickets.map((k) => k.kind),
      tickets.map((k) => k.employeeMeal),
      tickets.map((k) => k.trainingMode),
      tickets.map((k) => k.totalCents),
    ],
  );
  const lines = tickets.flatMap((k) => k.lines.map((l, i) => ({ k, l, no: i + 1 })));
  await pool.query(
    `INSERT INTO ticket_lines (site_id, ticket_id, line_no, article, family, quantity, unit_price_cents, amount_cents,
                               vat_rate, amount_excl_cents, tax_cents, corrected)
     SELECT a, b, c, d, 'Boissons', e, f, g, 0.1, round(g / 1.1), g - round(g / 1.1), h
       FROM unnest($1::int[], $2::bigint[], $3::int[], $4::text[], $5::numeric[], $6::bigint[], $7::bigint[], $8::boolean[])
            AS x(a, b, c, d, e, f, g, h)`,
    [
      lines.map((x) => x.k.siteId),
      lines.map((x) => x.k.ticketId),
      lines.map((x) => x.no),
      lines.map((x) => x.l.article),
      lines.map((x) => x.l.quantity),
      lines.map((x) => x.l.unitPriceCents),
      lines.map((x) => x.l.amountCents),
      lines.map((x) => x.l.corrected),
    ],
  );
  const payments = tickets.flatMap((k) => k.payments.map((p, i) => ({ k, p, no: i + 1 })));
  await pool.query(
    `INSERT INTO payments (site_id, ticket_id, payment_no, method, amount_cents)
     SELECT * FROM unnest($1::int[], $2::bigint[], $3::smallint[], $4::text[], $5::bigint[])`,
    [
      payments.map((x) => x.k.siteId),
      payments.map((x) => x.k.ticketId),
      payments.map((x) => x.no),
      payments.map((x) => x.p[0]),
      payments.map((x) => x.p[1]),
    ],
  );
}

let t: TestApp;
let tickets: FixtureTicket[];
let boss: AuthHeaders;
let bossId: number;
let lyon: AuthHeaders;
let lyonId: number;
let reporter: AuthHeaders;
let reporterId: number;

beforeAll(async () => {
  t = await createTestApp();
  tickets = fixtureTickets();
  await loadFixture(t, tickets);
  bossId = await t.createUser({ login: 'boss', password: PASSWORD, droits: ['TICKETS'], allSites: true });
  lyonId = await t.createUser({ login: 'lyon', password: PASSWORD, droits: ['TICKETS'], restaurantIds: [2] });
  reporterId = await t.createUser({
    login: 'reporter',
    password: PASSWORD,
    droits: ['RAPPORTS'],
    allSites: true,
  });
  boss = await t.signIn('boss', PASSWORD);
  lyon = await t.signIn('lyon', PASSWORD);
  reporter = await t.signIn('reporter', PASSWORD);
});
afterAll(async () => {
  await t?.close();
});

const PERIOD = 'dateDebut=2026-10-01&dateFin=2026-10-05';

function search(query: string, headers = boss, id = bossId) {
  return t.app.inject({ method: 'GET', url: `/api/bo/tickets/search?id=${id}&${PERIOD}&${query}`, headers });
}

async function searchAll(query: string) {
  const res = await search(`pageSize=200&${query}`);
  expect(res.statusCode).toBe(200);
  return TicketSearchAnswerSchema.parse(res.json());
}

/** Newest first; ties broken by site then ticket id, both descending (as the route promises). */
function newestFirst(list: FixtureTicket[]): number[] {
  return [...list]
    .sort((a, b) =>
      a.openedAt !== b.openedAt
        ? a.openedAt < b.openedAt
          ? 1
          : -1
        : a.siteId !== b.siteId
          ? b.siteId - a.siteId
          : b.ticketId - a.ticketId,
    )
    .map((k) => k.ticketId);
}

const MATCHES: Record<TicketCriterion, (k: FixtureTicket) => boolean> = {
  cancellations: (k) => k.kind === 'CANCELLATION',
  corrections: (k) => k.lines.some((l) => l.corrected),
  cashed: (k) => k.payments.length > 0,
  employeeMeals: (k) => k.employeeMeal,
};

const live = () => tickets.filter((k) => !k.trainingMode);

describe('GET bo/tickets/search', () => {
  it('answers every ticket of the scope and period, newest first, with the total count', async () => {
    const answer = await searchAll('');
    const expected = newestFirst(live());
    expect(answer.total).toBe(expected.length);
    expect(answer.tickets.map((k) => k.ticketId)).toEqual(expected);
    expect(new Set(answer.tickets.map((k) => k.restaurantId))).toEqual(new Set([1, 2, 3]));
  });

  it.each(TICKET_CRITERIA)('keeps only the tickets meeting the criterion %s', async (criterion) => {
    const answer = await searchAll(`criteres[]=${criterion}`);
    const expected = newestFirst(live().filter(MATCHES[criterion]));
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(live().length);
    expect(answer.total).toBe(expected.length);
    expect(answer.tickets.map((k) => k.ticketId)).toEqual(expected);
  });

  it('keeps tickets meeting any of several criteria', async () => {
    const answer = await searchAll('criteres[]=cancellations&criteres[]=employeeMeals');
    expect(answer.tickets.map((k) => k.ticketId)).toEqual(
      newestFirst(live().filter((k) => MATCHES.cancellations(k) || MATCHES.employeeMeals(k))),
    );
    // The comma-separated form says the same.
    const comma = await searchAll('criteres=cancellations,employeeMeals');
    expect(comma.tickets).toEqual(answer.tickets);
  });

  it('flags each ticket as corrected and cashed as its lines and payments say', async () => {
    const answer = await searchAll('');
    for (const k of answer.tickets) {
      const source = tickets.find((x) => x.ticketId === k.ticketId)!;
      expect(k.corrected).toBe(MATCHES.corrections(source));
      expect(k.cashed).toBe(MATCHES.cashed(source));
      expect(k.totalCents).toBe(source.totalCents);
    }
  });

  it('keeps totals within montantMin..montantMax, both in cents and included', async () => {
    const inRange = live().filter((k) => k.totalCents >= 1000 && k.totalCents <= 2500);
    const answer = await searchAll('montantMin=1000&montantMax=2500');
    expect(answer.tickets.map((k) => k.ticketId)).toEqual(newestFirst(inRange));
    const edge = inRange[0]!.totalCents;
    const exact = await searchAll(`montantMin=${edge}&montantMax=${edge}`);
    expect(exact.tickets.map((k) => k.totalCents)).toContain(edge);
    expect(exact.tickets.every((k) => k.totalCents === edge)).toBe(true);
    // A negative bound reaches refunds and cancellations.
    const negative = await searchAll('montantMax=-1');
    expect(negative.tickets.map((k) => k.ticketId)).toEqual(
      newestFirst(live().filter((k) => k.totalCents <= -1)),
    );
  });

  it('refuses a minimum above the maximum', async () => {
    const res = await search('montantMin=500&montantMax=100');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'BadRequest' });
  });

  it('filters by terminal, seller and hour range (site time)', async () => {
    const answer = await searchAll('sites[]=1&tpv[]=2&vendeurs=V02&heureDebut=12:00&heureFin=15:00');
    const expected = live().filter(
      (k) => k.siteId === 1 && k.terminalId === 2 && k.sellerCode === 'V02' && k.hour >= 12 && k.hour < 15,
    );
    expect(expected.length).toBeGreaterThan(0);
    expect(answer.tickets.map((k) => k.ticketId)).toEqual(newestFirst(expected));
    expect(answer.tickets[0]).toMatchObject({ terminal: 'Caisse bar', seller: 'Bob', site: 'Paris Opéra' });
  });

  it('reads the hour range in each site’s own clock', async () => {
    const answer = await searchAll('sites[]=3&heureDebut=08:00&heureFin=09:00');
    const expected = live().filter((k) => k.siteId === 3 && k.hour === 8);
    expect(answer.tickets.map((k) => k.ticketId)).toEqual(newestFirst(expected));
    expect(answer.tickets[0]?.openedLocal).toMatch(/^2026-10-01T08:/);
  });

  it('lets an hour range run past midnight when it ends before it starts', async () => {
    const answer = await searchAll('heureDebut=21:00&heureFin=09:00');
    const expected = live().filter((k) => k.hour >= 21 || k.hour < 9);
    expect(expected.length).toBeGreaterThan(0);
    expect(answer.tickets.map((k) => k.ticketId)).toEqual(newestFirst(expected));
    const half = await search('heureDebut=21:00');
    expect(half.statusCode).toBe(400);
  });

  it('leaves training-mode tickets out unless trainingMode=true', async () => {
    const answer = await searchAll('trainingMode=true');
    expect(answer.total).toBe(tickets.length);
    expect(answer.tickets.some((k) => k.trainingMode)).toBe(true);
  });

  it('pages through the results without gap or repeat, the total staying the same', async () => {
    const expected = newestFirst(live().filter((k) => k.siteId === 1));
    const seen: number[] = [];
    for (let page = 1; page <= Math.ceil(expected.length / 7); page++) {
      const res = await search(`sites[]=1&pageSize=7&page=${page}`);
      const answer = TicketSearchAnswerSchema.parse(res.json());
      expect(answer).toMatchObject({ page, pageSize: 7, total: expected.length });
      seen.push(...answer.tickets.map((k) => k.ticketId));
    }
    expect(seen).toEqual(expected);
    const beyond = TicketSearchAnswerSchema.parse((await search('sites[]=1&pageSize=7&page=999')).json());
    expect(beyond).toMatchObject({ total: expected.length, tickets: [] });
  });

  it('refuses a page size above the maximum', async () => {
    const res = await search('pageSize=1000');
    expect(res.statusCode).toBe(400);
  });

  it('answers an empty page, not an error, when nothing matches', async () => {
    const res = await search('montantMin=99999999');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ page: 1, pageSize: 50, total: 0, tickets: [] });
  });

  it(`refuses a period longer than ${TICKET_SEARCH_MAX_DAYS} days with MaxReportDays`, async () => {
    const res = await t.app.inject({
      url: `/api/bo/tickets/search?id=${bossId}&dateDebut=2026-01-01&dateFin=2026-04-30`,
      headers: boss,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'MaxReportDays', details: { maxDays: TICKET_SEARCH_MAX_DAYS } });
    const backwards = await t.app.inject({
      url: `/api/bo/tickets/search?id=${bossId}&dateDebut=2026-10-05&dateFin=2026-10-01`,
      headers: boss,
    });
    expect(backwards.statusCode).toBe(400);
  });

  it('answers 403 for a site outside the scope, and searches the whole scope when no site is given', async () => {
    const outside = await search('sites[]=1&sites[]=2', lyon, lyonId);
    expect(outside.statusCode).toBe(403);
    expect(outside.json()).toMatchObject({ code: 'Forbidden', details: { sites: [1] } });
    const own = await search('pageSize=200', lyon, lyonId);
    const answer = TicketSearchAnswerSchema.parse(own.json());
    expect(answer.tickets.map((k) => k.ticketId)).toEqual(newestFirst(live().filter((k) => k.siteId === 2)));
  });

  it('needs the TICKETS right and the caller’s own id', async () => {
    expect((await search('', reporter, reporterId)).statusCode).toBe(403);
    expect((await search('', boss, lyonId)).statusCode).toBe(403);
  });
});

describe('ticket options of the profile (SPEC.md §3 optionsTickets)', () => {
  /** Sets the `optionsTickets` of the own profile of `login` (TestApp makes one per user). */
  async function setOptions(login: string, options: Record<string, boolean>) {
    await t.database.pool.query('UPDATE profiles SET options_tickets = $2 WHERE titre = $1', [
      `profile-${login}`,
      JSON.stringify(options),
    ]);
  }

  async function signInAnswer(login: string) {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/bo/connexion?username=${login}`,
      headers: { authorization: basic(login, PASSWORD), [CLIENT_HEADER]: CLIENT_HEADER_VALUE },
    });
    expect(res.statusCode).toBe(200);
    return ConnexionAnswerSchema.parse(res.json());
  }

  it('lets an empty options object (profiles made before the options) use every criterion', async () => {
    const [row] = (
      await t.database.pool.query('SELECT options_tickets FROM profiles WHERE titre = $1', ['profile-boss'])
    ).rows;
    expect(row.options_tickets).toEqual({});
    expect((await signInAnswer('boss')).criteresTickets).toEqual([...TICKET_CRITERIA]);
    const all = TICKET_CRITERIA.map((c) => `criteres[]=${c}`).join('&');
    expect((await search(all)).statusCode).toBe(200);
  });

  it('refuses a criterion the profile sets to false, with details.criteria, and keeps the others', async () => {
    const id = await t.createUser({
      login: 'nocancel',
      password: PASSWORD,
      droits: ['TICKETS'],
      allSites: true,
    });
    await setOptions('nocancel', { cancellations: false, corrections: true });
    expect((await signInAnswer('nocancel')).criteresTickets).toEqual([
      'corrections',
      'cashed',
      'employeeMeals',
    ]);
    const headers = await t.signIn('nocancel', PASSWORD);

    const refused = await search('criteres[]=cancellations&criteres[]=cashed', headers, id);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'Forbidden', details: { criteria: ['cancellations'] } });
    expect((await search('criteres=cancellations', headers, id)).statusCode).toBe(403);

    const others = await search('pageSize=200&criteres[]=corrections&criteres[]=employeeMeals', headers, id);
    expect(others.statusCode).toBe(200);
    expect(TicketSearchAnswerSchema.parse(others.json()).tickets.map((k) => k.ticketId)).toEqual(
      newestFirst(live().filter((k) => MATCHES.corrections(k) || MATCHES.employeeMeals(k))),
    );
    // No criterion at all is still a search of every ticket.
    expect((await search('pageSize=1', headers, id)).statusCode).toBe(200);
  });

  it('applies a change of the profile to a session already open', async () => {
    const id = await t.createUser({
      login: 'changing',
      password: PASSWORD,
      droits: ['TICKETS'],
      allSites: true,
    });
    const headers = await t.signIn('changing', PASSWORD);
    expect((await search('criteres[]=employeeMeals', headers, id)).statusCode).toBe(200);
    await setOptions('changing', { employeeMeals: false });
    await expect
      .poll(async () => (await search('criteres[]=employeeMeals', headers, id)).statusCode)
      .toBe(403);
    await setOptions('changing', { employeeMeals: true });
    await expect
      .poll(async () => (await search('criteres[]=employeeMeals', headers, id)).statusCode)
      .toBe(200);
  });
});

describe('GET bo/tickets/detail', () => {
  function detail(site: number, ticketId: number, headers = boss, id = bossId) {
    return t.app.inject({
      url: `/api/bo/tickets/detail?id=${id}&site=${site}&ticketId=${ticketId}`,
      headers,
    });
  }

  it('shows a ticket with a corrected line and a split payment: lines, payments and history', async () => {
    const source = tickets.find(
      (k) => k.siteId === 1 && k.lines.some((l) => l.corrected) && !k.trainingMode,
    )!;
    const res = await detail(1, source.ticketId);
    expect(res.statusCode).toBe(200);
    const body = TicketDetailSchema.parse(res.json());
    expect(body).toMatchObject({
      restaurantId: 1,
      site: 'Paris Opéra',
      ticketId: source.ticketId,
      number: `T-${source.ticketId}`,
      fiscalDate: source.fiscalDate,
      openedAt: source.openedAt,
      openedLocal: `${source.fiscalDate}T${String(source.hour).padStart(2, '0')}:${String(source.minute).padStart(2, '0')}:00`,
      terminalId: source.terminalId,
      sellerCode: source.sellerCode,
      seller: source.sellerCode === 'V01' ? 'Alice' : 'Bob',
      kind: 'SALE',
      corrected: true,
      cashed: true,
      totalCents: source.totalCents,
      currency: 'EUR',
      timeZone: 'Europe/Paris',
    });
    expect(body.lines).toEqual([
      {
        lineNo: 1,
        articleCode: null,
        article: 'Café',
        family: 'Boissons',
        quantity: 1,
        unitPriceCents: source.totalCents,
        amountCents: source.totalCents,
        vatRate: 0.1,
        corrected: false,
      },
      {
        lineNo: 2,
        articleCode: null,
        article: 'Bière',
        family: 'Boissons',
        quantity: 1,
        unitPriceCents: 650,
        amountCents: 0,
        vatRate: 0.1,
        corrected: true,
      },
    ]);
    expect(body.payments).toEqual([
      { paymentNo: 1, method: 'CARD', amountCents: source.payments[0]![1] },
      { paymentNo: 2, method: 'CASH', amountCents: source.payments[1]![1] },
    ]);
    expect(body.payments.reduce((s, p) => s + p.amountCents, 0)).toBe(body.totalCents);
  });

  it('shows a cancellation with its negative lines and refund', async () => {
    const source = tickets.find((k) => k.kind === 'CANCELLATION' && k.siteId === 2)!;
    const body = TicketDetailSchema.parse((await detail(2, source.ticketId)).json());
    expect(body.kind).toBe('CANCELLATION');
    expect(body.totalCents).toBeLessThan(0);
    expect(body.lines).toHaveLength(1);
    expect(body.lines[0]).toMatchObject({ quantity: -1, amountCents: source.totalCents });
    expect(body.payments).toEqual([{ paymentNo: 1, method: 'CASH', amountCents: source.totalCents }]);
  });

  it('links a cancellation and the sale it cancels both ways, and says nothing when the till did not record it', async () => {
    const cancellations = tickets.filter((k) => k.kind === 'CANCELLATION' && k.siteId === 1);
    const [linked, unlinked] = cancellations as [FixtureTicket, FixtureTicket];
    const sale = tickets.find(
      (k) => k.kind === 'SALE' && k.siteId === 1 && k.fiscalDate === linked.fiscalDate,
    )!;
    await t.database.pool.query(
      'UPDATE tickets SET cancels_ticket_id = $3 WHERE site_id = $1 AND ticket_id = $2',
      [1, linked.ticketId, sale.ticketId],
    );
    try {
      const cancellation = TicketDetailSchema.parse((await detail(1, linked.ticketId)).json());
      expect(cancellation.cancels).toMatchObject({
        restaurantId: 1,
        ticketId: sale.ticketId,
        kind: 'SALE',
        totalCents: sale.totalCents,
      });
      expect(cancellation.cancelledBy).toEqual([]);
      const cancelled = TicketDetailSchema.parse((await detail(1, sale.ticketId)).json());
      expect(cancelled.cancels).toBeNull();
      expect(cancelled.cancelledBy).toEqual([
        expect.objectContaining({ ticketId: linked.ticketId, kind: 'CANCELLATION' }),
      ]);
      const silent = TicketDetailSchema.parse((await detail(1, unlinked.ticketId)).json());
      expect(silent.cancels).toBeNull();
    } finally {
      await t.database.pool.query('UPDATE tickets SET cancels_ticket_id = NULL WHERE site_id = 1');
    }
  });

  it('answers 403 for a site outside the scope and 404 for an unknown ticket', async () => {
    const paris = tickets.find((k) => k.siteId === 1)!;
    const refused = await detail(1, paris.ticketId, lyon, lyonId);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'Forbidden' });
    const missing = await detail(2, 424242);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: 'NotFound' });
    // A ticket of another site asked under a site of the scope is not found either.
    expect((await detail(2, paris.ticketId)).statusCode).toBe(404);
  });
});
