/**
 * /config/audit against the real server (admin-screens-api.ts), rendered with react-dom in
 * happy-dom, on audit rows written as the server writes them: newest first, each entry with
 * who, when (DD/MM/YYYY HH:mm), action, target, address and only the changed fields; filtered by
 * kind and by a period typed DD/MM/YYYY (a start after the end refused at the field, the typing
 * kept); paged 25 at a time; fields, values and targets named in French, not as ids or codes.
 */
import { adminId, chain, closeAll, counterId, readAsAdmin, t } from './admin-screens-api.ts';
import { act } from 'react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import fr from '../../i18n/fr.json';
import { displayInstant } from '../../src/contract/dates.ts';
import { AuditPage } from '../../src/client/features/audit-log/components/audit-page.tsx';
import { queryClient } from '../../src/client/lib/query-client.ts';
import { signIn } from '../../src/client/lib/session.ts';
import { PASSWORD } from './admin-screens-api.ts';
import { inputLabelled, renderScreen, type Screen, typeInto, unmountScreen, waitUntil } from './support.tsx';

let screen: Screen;
const waitFor = (predicate: () => boolean) => waitUntil(predicate, 8_000, 25);

/** Appends an audit row at `at` (ISO), as recordAudit does, with its own time. */
async function audit(
  at: string,
  row: {
    user: number | null;
    action: string;
    target: number;
    before?: object;
    after?: object;
    address: string;
  },
) {
  await t.database.pool.query(
    `INSERT INTO audit_log (at, user_id, action, kind, target_id, before, after, address)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      at,
      row.user,
      row.action,
      row.action.split('.')[0],
      String(row.target),
      row.before ?? null,
      row.after ?? null,
      row.address,
    ],
  );
}

const COMPANY_SAVED = '2026-03-01T09:15:00Z';
const GROUP_CREATED = '2026-03-05T17:40:00Z';
/** The administrator's profile, which the message entry targets by id. */
let adminProfile: { id: number; titre: string };

beforeAll(async () => {
  for (let i = 0; i < 30; i++) {
    await audit(`2026-02-01T08:${String(i).padStart(2, '0')}:00Z`, {
      user: adminId,
      action: 'site.save',
      target: chain.sites.lyon,
      before: { dayStart: '05:00' },
      after: { dayStart: '06:00' },
      address: '192.0.2.1',
    });
  }
  await audit(COMPANY_SAVED, {
    user: adminId,
    action: 'company.save',
    target: chain.companies.alpha,
    before: { raisonSociale: 'Alpha', enseigne: 'Alpha', restaurantIds: [1, 2] },
    after: { raisonSociale: 'Alpha SAS', enseigne: 'Alpha', restaurantIds: [1, 2] },
    address: '203.0.113.7',
  });
  await audit(GROUP_CREATED, {
    user: adminId,
    action: 'group.create',
    target: chain.groups.nord,
    after: { raisonSociale: 'Nord', restaurantIds: [chain.sites.paris] },
    address: '198.51.100.2',
  });
  await audit('2026-03-03T10:00:00Z', {
    user: counterId,
    action: 'user.save',
    target: counterId,
    before: { email: null },
    after: { email: 'compteur@example.com' },
    address: '192.0.2.9',
  });
  const profiles =
    await readAsAdmin<{ id: number; titre: string; droits: string[] }[]>('bo/infra/getProfils');
  adminProfile = profiles.find((p) => p.droits.includes('CONFIGURATION'))!;
  await audit('2026-03-07T08:00:00Z', {
    user: null,
    action: 'user.passwordReset',
    target: counterId,
    after: { via: 'emailLink', sessionsRevoked: 1 },
    address: '192.0.2.10',
  });
  await audit('2026-03-08T08:00:00Z', {
    user: adminId,
    action: 'message.create',
    target: 1,
    after: {
      texts: { en: 'Closed on Monday', fr: 'Fermé lundi' },
      severity: 'warning',
      fromDate: '2026-03-09',
      toDate: '2026-03-10',
      restaurantIds: [chain.sites.paris, chain.sites.lyon],
      profileIds: [adminProfile.id],
    },
    address: '192.0.2.11',
  });
  await signIn('admin', PASSWORD);
});
afterAll(() => closeAll());
afterEach(async () => {
  await waitFor(() => queryClient.isFetching() === 0);
  unmountScreen(screen);
});

const items = () => [...screen.container.querySelectorAll<HTMLElement>('.al-item')];
const facts = (item: HTMLElement | undefined) =>
  [...(item?.querySelectorAll('.ui-facts__row') ?? [])].map(
    (r) => `${r.querySelector('dt')?.textContent}=${r.querySelector('dd')?.textContent}`,
  );
const diffRows = (item: HTMLElement | undefined) =>
  [...(item?.querySelectorAll('tbody tr') ?? [])].map((r) =>
    [...r.children].map((c) => c.textContent).join(' | '),
  );
const shown = (date: string) => {
  const { date: d, time } = displayInstant(date);
  return `${d} à ${time}`;
};

async function open() {
  screen = await renderScreen(<AuditPage />, 'fr', fr);
  await waitFor(() => items().length > 0);
}

describe('/config/audit', () => {
  it('lists entries newest first with who, when, target, address and only the changed fields', async () => {
    await open();
    const [, , group, , company] = items();
    expect(group?.querySelector('h2')?.textContent).toBe('Groupe · création');
    expect(facts(group)).toEqual([
      'Qui=admin',
      `Quand=${shown(GROUP_CREATED)}`,
      'Cible=Groupe « Nord »',
      'Adresse=198.51.100.2',
    ]);
    // The sites' names arrive with the reference data (bo/getSites), maybe after the entries.
    await waitFor(() => diffRows(group).includes('Sites | — | Paris'));
    expect(diffRows(group)).toEqual(['Raison sociale | — | Nord', 'Sites | — | Paris']);
    expect(company?.querySelector('h2')?.textContent).toBe('Société · modification');
    expect(diffRows(company)).toEqual(['Raison sociale | Alpha | Alpha SAS']);
    expect(screen.container.querySelector('[role="status"]')?.textContent).toBe('Entrées 1 à 25 sur 35');
  });

  it('names fields, values and targets in French: no ids, codes or JSON', async () => {
    await open();
    const [message, reset] = items();
    expect(facts(message)[2]).toBe('Cible=Message « Fermé lundi »');
    // The profiles' titles arrive with GET bo/infra/getProfils, after the entries.
    await waitFor(() => diffRows(message).some((r) => r.includes(adminProfile.titre)));
    // The sites' names arrive with GET bo/getSites (reference data), in their own time too.
    await waitFor(() => diffRows(message).some((r) => r.startsWith('Sites') && !r.includes('#')));
    // In the order PostgreSQL's jsonb keeps the keys (shorter first).
    expect(diffRows(message)).toEqual([
      'Textes | — | fr: Fermé lundi; en: Closed on Monday',
      'Dernier jour | — | 10/03/2026',
      'Premier jour | — | 09/03/2026',
      'Importance | — | Attention',
      `Profils | — | ${adminProfile.titre}`,
      'Sites | — | Paris, Lyon',
    ]);
    expect(facts(reset).slice(0, 1)).toEqual(['Qui=Anonyme (lien de réinitialisation)']);
    expect(facts(reset)[2]).toBe('Cible=Utilisateur « compteur »');
    expect(diffRows(reset)).toEqual(['Par | — | lien reçu par e-mail', 'Sessions fermées | — | 1']);
    // A site's entry records no name: the site of that id in the reference data names it.
    const site = items()[5];
    await waitFor(() => facts(site)[2] === 'Cible=Site « Lyon »');
    expect(diffRows(site)).toEqual(['Début de journée | 05:00 | 06:00']);
  });

  it('pages 25 entries at a time', async () => {
    await open();
    const next = [...screen.container.querySelectorAll('button')].find(
      (b) => b.textContent === 'Page suivante',
    );
    await act(async () => {
      next?.click();
    });
    await waitFor(
      () => screen.container.querySelector('[role="status"]')?.textContent === 'Entrées 26 à 35 sur 35',
    );
    expect(items()).toHaveLength(10);
    expect(screen.container.textContent).toContain('Page 2 sur 2');
  });

  it('filters by a period typed DD/MM/YYYY, refusing a start after the end at the field', async () => {
    await open();
    await typeInto(inputLabelled('Du', screen.container), '10/03/2026');
    await typeInto(inputLabelled('Au', screen.container), '02/03/2026');
    expect(screen.container.querySelector('.al-field-error')?.textContent).toBe(
      'La date de début est après la date de fin.',
    );
    expect(inputLabelled('Du', screen.container).value).toBe('10/03/2026');

    await typeInto(inputLabelled('Du', screen.container), '02/03/2026');
    await typeInto(inputLabelled('Au', screen.container), '06/03/2026');
    await waitFor(
      () => screen.container.querySelector('[role="status"]')?.textContent === 'Entrées 1 à 2 sur 2',
    );
    expect(items().map((i) => i.querySelector('h2')?.textContent)).toEqual([
      'Groupe · création',
      'Utilisateur · modification',
    ]);
  });

  /** Chooses `value` in the choice (react-aria Select, through its form <select>) that offers it. */
  async function choose(value: string) {
    await waitFor(() =>
      [...screen.container.querySelectorAll('select')].some((s) =>
        [...s.options].some((o) => o.value === value),
      ),
    );
    const select = [...screen.container.querySelectorAll('select')].find((s) =>
      [...s.options].some((o) => o.value === value),
    );
    await act(async () => {
      if (!select) return;
      select.value = value;
      select.dispatchEvent(new Event('change', { bubbles: true }));
    });
  }

  it('filters by who made the change', async () => {
    await open();
    await choose(String(counterId));
    await waitFor(
      () => screen.container.querySelector('[role="status"]')?.textContent === 'Entrées 1 à 1 sur 1',
    );
    expect(facts(items()[0])[0]).toBe('Qui=compteur');
    expect(diffRows(items()[0])).toEqual(['E-mail | — | compteur@example.com']);
  });

  it('filters by kind', async () => {
    await open();
    await choose('company');
    await waitFor(
      () => screen.container.querySelector('[role="status"]')?.textContent === 'Entrées 1 à 1 sur 1',
    );
    expect(items()[0]?.querySelector('h2')?.textContent).toBe('Société · modification');
  });
});
