/**
 * /evenements against the real API server (events-server.ts), rendered with react-dom in
 * happy-dom: a manager adds an event through the form and sees it on its day (eventAdded), the
 * week view lists it, refusals show at their field and keep what was typed (the client's checks
 * and a server refusal), a change is told with eventEdited, a deletion asks first; offline, the
 * writes are disabled and said so; a user without EVENEMENTS only reads, and sees the forecast
 * of each day per day part with its reliability, in the day's details and the week view.
 */
import { chain, server as t } from './events-server.ts';
import { act } from 'react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import fr from '../../i18n/fr.json';
import { toWireDate, wireToDisplay } from '../../src/contract/dates.ts';
import { EventsPage } from '../../src/client/features/events/components/events-page.tsx';
import { i18nState } from '../../src/client/lib/i18n.tsx';
import { clearNotifications, notifications } from '../../src/client/lib/notifications.ts';
import { queryClient } from '../../src/client/lib/query-client.ts';
import { signIn } from '../../src/client/lib/session.ts';
import {
  referenceLoad,
  resetReferenceLoad,
  resetSelection,
} from '../../src/client/selection/selection-state.ts';
import { loadReferenceData } from '../../src/client/selection/load-reference-data.ts';
import { setDeviceOnline } from './counting-dom.ts';
import {
  buttonNamed,
  inputLabelled,
  press,
  renderScreen,
  type Screen,
  typeInto,
  unmountScreen,
  waitUntil,
} from './support.tsx';

const PASSWORD = 'Comptoir-2026!';
const TODAY = toWireDate(new Date());
const SHOWN_TODAY = wireToDisplay(TODAY);
let screen: Screen | undefined;

const page = () => screen!.container;
const form = () => document.querySelector<HTMLFormElement>('[data-testid="event-form"]');
const successes = () => notifications.items.filter((n) => n.kind === 'success').map((n) => n.code);
const dayPanel = () => page().querySelector<HTMLElement>(`.ev-day[data-day="${TODAY}"]`);
const storedNames = async () =>
  (
    await t.database.pool.query<{ designation: string }>('SELECT designation FROM local_events ORDER BY 1')
  ).rows.map((r) => r.designation);

/** Waits until the button named `name` is enabled (the user's sites loaded), presses it, waits for the form. */
async function pressForForm(name: string) {
  const enabled = () => {
    try {
      return !buttonNamed(page(), name).hasAttribute('disabled');
    } catch {
      return false;
    }
  };
  await waitUntil(enabled, 5_000, 20);
  await press(buttonNamed(page(), name));
  await waitUntil(() => form() !== null, 5_000, 20);
}
/** Opens the choice labelled `label` (a react-aria Select of the form) and picks `option`. */
async function choose(label: string, option: string) {
  const field = [...document.querySelectorAll('.ui-select')].find((s) =>
    s.querySelector('.ui-field__label')?.textContent?.startsWith(label),
  );
  const trigger = field?.querySelector<HTMLElement>('button');
  if (!trigger) throw new Error(`no choice labelled ${label}`);
  await press(trigger);
  const item = () =>
    [...document.querySelectorAll<HTMLElement>('[role="option"]')].find((o) => o.textContent === option);
  await waitUntil(() => item() !== undefined, 5_000, 20);
  await press(item()!);
}
async function submit() {
  await act(async () => {
    form()?.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
  });
}
/** The error text shown for `field` (the FieldError among its aria-describedby), or null. */
function errorOf(field: HTMLElement): string | null {
  if (field.getAttribute('aria-invalid') !== 'true') return null;
  const ids = (field.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean);
  const error = ids
    .map((id) => document.getElementById(id))
    .find((e) => e?.classList.contains('ui-field__error'));
  return error?.textContent ?? null;
}
/**
 * Renders the page and waits for the user's sites (the calendar reads once they are known): the
 * picker's "all your sites (n)", or the one site named when there is only one (issue #32 D.13).
 */
async function openPage(sites = 2) {
  clearNotifications();
  screen = await renderScreen(<EventsPage />, 'fr', fr);
  const known = () =>
    sites === 1
      ? page().querySelector('[data-testid="only-site"]') !== null
      : (page().textContent?.includes(`tous vos sites (${sites})`) ?? false);
  await waitUntil(known, 10_000, 20).catch((e: unknown) => {
    throw new Error(`${String(e)}: ${page().textContent}`);
  });
  await waitUntil(() => dayPanel() !== null && page().querySelector('[role="grid"]') !== null, 5_000, 20);
}
/** Fills the form's required fields for an event named `name` (dates and sites as the form proposes). */
async function fillEvent(name: string) {
  await choose("Type d'événement", 'Concert');
  await typeInto(inputLabelled('Désignation'), name);
  await choose("Type d'impact", 'Hausse');
  await typeInto(inputLabelled("Taux d'impact"), '15');
}

beforeAll(async () => {
  await t.createUser({
    login: 'gerant',
    password: PASSWORD,
    droits: ['EVENEMENTS'],
    restaurantIds: [chain.sites.paris, chain.sites.lyon],
  });
  await t.createUser({
    login: 'lecteur',
    password: PASSWORD,
    droits: ['BI'],
    restaurantIds: [chain.sites.paris],
  });
  await seedFlatHistory(chain.sites.paris);
  i18nState.language = 'fr';
  await signIn('gerant', PASSWORD);
});

/** 120 days of sales before today at 1,000.00 a day on `siteId`: a forecast the reader can see. */
async function seedFlatHistory(siteId: number) {
  const days = `generate_series($2::date - 120, $2::date - 1, interval '1 day')`;
  await t.database.pool.query(
    `INSERT INTO daily_sales (site_id, fiscal_date, tickets, net_cents, net_excl_cents, tax_cents)
     SELECT $1, d::date, 50, 100000, 100000, 0 FROM ${days} d`,
    [siteId, TODAY],
  );
  await t.database.pool.query(
    `INSERT INTO daily_hour_sales (site_id, fiscal_date, hour, tickets, covers, net_cents, net_excl_cents, tax_cents)
     SELECT $1, d::date, 12, 50, 50, 100000, 100000, 0 FROM ${days} d`,
    [siteId, TODAY],
  );
  // A sales load records its data_loads row: the forecast's cache hears of it (migration 0010).
  await t.database.pool.query(
    `INSERT INTO data_loads (site_id, source, first_fiscal_date, last_fiscal_date, tickets)
     VALUES ($1, 'test', $2::date - 120, $2::date - 1, 1)`,
    [siteId, TODAY],
  );
  await t.app.changes.settled();
}
afterEach(async () => {
  // Online first: TanStack Query holds its fetches while the device is offline.
  setDeviceOnline(true);
  // A load cut short by emptying the query cache would never end: let it finish first.
  await waitUntil(() => !referenceLoad.loading, 5_000, 20);
  if (screen) unmountScreen(screen);
  screen = undefined;
});
afterAll(async () => {
  await t.close();
});

describe('/evenements', () => {
  it('adds an event through the form: it shows on its day, the server holds it, eventAdded is told', async () => {
    await openPage();
    expect(dayPanel()?.textContent).toContain('Aucun événement ce jour-là.');
    await pressForForm(`Ajouter un événement le ${SHOWN_TODAY}`);
    // Start and end are the day chosen, the sites those of the calendar (all of the scope).
    expect(inputLabelled('Début').value).toBe(SHOWN_TODAY);
    const checked = [...form()!.querySelectorAll('.ui-checkbox[data-selected] .ui-checkbox__label')];
    expect(checked.map((c) => c.textContent).sort()).toEqual(['Lyon', 'Paris']);
    await fillEvent('Concert au parc');
    await submit();
    await waitUntil(() => form() === null, 5_000, 20);

    expect(successes()).toEqual(['eventAdded']);
    await waitUntil(() => dayPanel()?.textContent?.includes('Concert au parc') ?? false, 5_000, 20);
    expect(dayPanel()?.textContent).toContain('+15 %');
    expect(dayPanel()?.textContent).toContain('Paris, Lyon');
    expect(await storedNames()).toEqual(['Concert au parc']);
  });

  it('lists the event on its day in the week view', async () => {
    await openPage();
    await press(buttonNamed(page(), 'Semaine'));
    await waitUntil(() => page().querySelectorAll('.ev-week .ev-day').length === 7, 5_000, 20);
    const today = () => page().querySelector<HTMLElement>(`.ev-week .ev-day[data-day="${TODAY}"]`);
    await waitUntil(() => today()?.textContent?.includes('Concert au parc') ?? false, 5_000, 20);
    expect(page().querySelector('[role="grid"]')).toBeNull();
  });

  it('refuses missing fields and a start after the end at their field, keeping what was typed', async () => {
    await openPage();
    await pressForForm(`Ajouter un événement le ${SHOWN_TODAY}`);
    await typeInto(inputLabelled('Début'), '20/06/2026');
    await typeInto(inputLabelled('Fin'), '19/06/2026');
    await submit();

    const designation = inputLabelled('Désignation');
    expect(errorOf(designation)).toBe('Ce champ est obligatoire.');
    expect(errorOf(inputLabelled('Fin'))).toBe('La date de fin est avant la date de début.');
    expect(errorOf(inputLabelled("Taux d'impact"))).toBe('Ce champ est obligatoire.');
    expect(form()?.textContent).toContain('Ce champ est obligatoire.');
    expect(inputLabelled('Début').value).toBe('20/06/2026');
    expect(inputLabelled('Fin').value).toBe('19/06/2026');
    await typeInto(inputLabelled("Taux d'impact"), '2000');
    await submit();
    expect(errorOf(inputLabelled("Taux d'impact"))).toBe('Saisissez un nombre de 0 à 1000.');
    expect(await storedNames()).toEqual(['Concert au parc']);
    expect(successes()).toEqual([]);
  });

  it('keeps what was typed when the server refuses a change (the event was deleted meanwhile)', async () => {
    const { rows } = await t.database.pool.query<{ uuid: string }>(
      `INSERT INTO local_events (event_type, designation, sales_channel, start_date, end_date, impact_type, impact_rate)
       VALUES ('STRIKE', 'Grève des bus', 'ALL', $1, $1, 'Negative', 20) RETURNING uuid`,
      [TODAY],
    );
    await t.database.pool.query('INSERT INTO local_event_sites (site_id, event_uuid) VALUES ($1, $2)', [
      chain.sites.paris,
      rows[0]!.uuid,
    ]);
    await openPage();
    await waitUntil(() => dayPanel()?.textContent?.includes('Grève des bus') ?? false, 5_000, 20);
    await pressForForm('Modifier « Grève des bus »');
    expect(inputLabelled('Désignation').value).toBe('Grève des bus');
    await t.database.pool.query('DELETE FROM local_events WHERE uuid = $1', [rows[0]!.uuid]);
    await typeInto(inputLabelled('Désignation'), 'Grève des bus et du tram');
    await submit();
    await waitUntil(() => form()?.querySelector('[role="alert"]') !== null, 5_000, 20);

    expect(form()?.querySelector('[role="alert"]')?.textContent).toBe(fr['error.NotFound']);
    expect(inputLabelled('Désignation').value).toBe('Grève des bus et du tram');
    expect(successes()).toEqual([]);
  });

  it('changes an event (eventEdited), then deletes it after its confirmation (SuccessMod)', async () => {
    await openPage();
    await pressForForm('Modifier « Concert au parc »');
    await choose("Type d'impact", 'Baisse');
    await typeInto(inputLabelled('Désignation'), 'Concert annulé');
    await submit();
    await waitUntil(() => form() === null, 5_000, 20);
    expect(successes()).toEqual(['eventEdited']);
    await waitUntil(() => dayPanel()?.textContent?.includes('Concert annulé') ?? false, 5_000, 20);
    expect(dayPanel()?.textContent).toContain('−15 %');

    await press(buttonNamed(page(), 'Supprimer « Concert annulé »'));
    const dialog = document.querySelector<HTMLElement>('[role="alertdialog"]');
    expect(dialog?.textContent).toContain('Concert annulé');
    expect(await storedNames()).toEqual(['Concert annulé']);
    await press(buttonNamed(dialog!, 'Supprimer'));
    await waitUntil(() => dayPanel()?.textContent?.includes('Aucun événement') ?? false, 5_000, 20);
    expect(successes()).toContain('SuccessMod');
    expect(await storedNames()).toEqual([]);
  });

  it('says offline that writes need the network, and disables them', async () => {
    await openPage();
    setDeviceOnline(false);
    await waitUntil(() => page().querySelector('.ev-note') !== null, 5_000, 20);
    expect(page().querySelector('.ev-note')?.textContent).toContain('Hors ligne');
    const add = buttonNamed(page(), `Ajouter un événement le ${SHOWN_TODAY}`);
    expect(add.hasAttribute('disabled') || add.getAttribute('aria-disabled') === 'true').toBe(true);
  });

  it('shows a user without EVENEMENTS the events, read-only', async () => {
    await t.app.inject({
      method: 'PUT',
      url: '/api/withCredentials/collab/addEvenementLocal',
      headers: await t.signIn('gerant', PASSWORD),
      payload: {
        typeEvenement: 'FAIR',
        designation: 'Braderie',
        canalVente: 'ALL',
        typeImpact: 'Positive',
        tauxImpact: 10,
        dateDebut: TODAY,
        dateFin: TODAY,
        perim_affects: [chain.sites.paris, chain.sites.lyon],
      },
    });
    // Another user on the same device: their own sites, loaded as after a sign-in.
    await signIn('lecteur', PASSWORD);
    resetSelection();
    resetReferenceLoad();
    queryClient.clear();
    await loadReferenceData();
    await openPage(1);
    await waitUntil(() => dayPanel()?.textContent?.includes('Braderie') ?? false, 5_000, 20);
    expect(page().textContent).toContain('Lecture seule');
    // One site: named, with no site or group picker offering no choice (issue #32 D.13).
    expect(page().querySelector('[data-testid="only-site"]')?.textContent).toBe('Site Paris');
    expect(page().textContent).not.toContain('tous vos sites');
    expect(page().textContent).not.toContain('Groupe');
    // Lyon is outside this reader's scope: only Paris is named.
    expect(dayPanel()?.textContent).toContain(`du ${SHOWN_TODAY} au ${SHOWN_TODAY} · Paris`);
    expect(dayPanel()?.textContent).not.toContain('Lyon');
    expect(page().querySelectorAll('.ev-event button')).toHaveLength(0);
    // BI reads the forecast: Paris's flat history of 1,000.00 € a day, raised by the Braderie's
    // +10 %: about 1,100.00 € today, between the ends of its 80 % range, measured 1–7 days ahead
    // on the last 8 weeks (issue #31).
    await waitUntil(() => dayPanel()?.querySelector('.ev-forecast') !== null, 10_000, 20);
    const forecast = dayPanel()?.querySelector('.ev-forecast')?.textContent ?? '';
    expect(forecast).toMatch(
      /^Prévision1\s(09\d|10\d),\d\d\s€ entre [\d\s]+,\d\d\s€ et [\d\s]+,\d\d\s€ écart moyen ±\d+ % pour une prévision à 1–7 jours, mesuré sur les 8 dernières semaines/,
    );
    expect(() => buttonNamed(page(), `Ajouter un événement le ${SHOWN_TODAY}`)).toThrow();
    // Paris sells at noon only: the day's forecast per day part is all lunch, with lunch's own
    // reliability; the parts forecast at nothing are left out.
    const partRows = (scope: ParentNode | null | undefined) =>
      [...(scope?.querySelectorAll('.ev-parts tbody tr') ?? [])].map((r) =>
        [...r.children].map((c) => c.textContent ?? ''),
      );
    expect(dayPanel()?.querySelector('.ev-parts caption')?.textContent).toBe(
      'Prévision par moment de la journée',
    );
    const [lunch, ...others] = partRows(dayPanel());
    expect(others).toEqual([]);
    expect(lunch?.[0]).toBe('Déjeuner');
    // The part's amount, its own 80 % range under it (issue #31), then its reliability.
    expect(lunch?.[1]).toMatch(/^1\s(09\d|10\d),\d\d\s€entre [\d\s]+,\d\d\s€ et [\d\s]+,\d\d\s€$/);
    expect(lunch?.[2]).toMatch(/^±\d+ %$/);
    // The week view tells each day's parts too.
    await press(buttonNamed(page(), 'Semaine'));
    const weekToday = () => page().querySelector<HTMLElement>(`.ev-week .ev-day[data-day="${TODAY}"]`);
    await waitUntil(() => partRows(weekToday()).length === 1, 10_000, 20);
    expect(partRows(weekToday())[0]?.[0]).toBe('Déjeuner');
  });
});
