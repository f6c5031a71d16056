/**
 * The safe screen (/analyses/coffre) against the real server and a real SMTP server
 * (counting-safe-api.ts), rendered with react-dom in happy-dom: the counts waiting for a
 * countersignature, a manager countersigning with their code (a wrong code first), the same
 * offline (nothing sent, what was typed kept, sent once back online), e-mailing a receipt and
 * reporting a missing count (SPEC.md §8 MailEnvoye / noDataError); and a cash count of a terminal
 * the site does not have, which the outbox keeps as "needs attention" with the translated reason.
 */
import { closeAll, received, s, t, today, yesterday, apiBase } from './counting-safe-api.ts';
import { waitForMail } from '../helpers/smtp.ts';
import { act } from 'react';
import type { Root } from 'react-dom/client';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import en from '../../i18n/en.json';
import { CashCountPage } from '../../src/client/features/counting/components/cash-count-page.tsx';
import { SafeCountPage } from '../../src/client/features/counting/components/safe-count-page.tsx';
import { saveCashCount } from '../../src/client/features/counting/save-counts.ts';
import { loadReferenceData } from '../../src/client/selection/load-reference-data.ts';
import { db } from '../../src/client/lib/outbox/local-database.ts';
import { clearNotifications, notifications } from '../../src/client/lib/notifications.ts';
import { readStoredCredentials } from '../../src/client/lib/outbox/credentials.ts';
import { webLock } from '../../src/client/lib/outbox/lock.ts';
import { replayOutbox } from '../../src/client/lib/outbox/replay.ts';
import { queryClient } from '../../src/client/lib/query-client.ts';
import { session, signIn } from '../../src/client/lib/session.ts';
import { PASSWORD } from '../server/counting/seed.ts';
import { setDeviceOnline } from './counting-dom.ts';
import {
  inputLabelled,
  renderScreen,
  rerenderScreen,
  submitForm as submit,
  typeInto,
  unmountScreen,
  waitUntil,
} from './support.tsx';

let container: HTMLDivElement;
let root: Root;

beforeAll(async () => {
  await signIn('manager', PASSWORD);
  await loadReferenceData();
});
afterAll(async () => {
  await closeAll();
});
beforeEach(() => {
  received.length = 0;
  clearNotifications();
  setDeviceOnline(true);
});
afterEach(async () => {
  await waitFor(() => queryClient.isFetching() === 0);
  unmountScreen({ container, root }, { keepCache: true });
});

async function render(page: React.ReactNode): Promise<void> {
  ({ container, root } = await renderScreen(page, 'en', en));
}

const waitFor = (predicate: () => boolean) => waitUntil(predicate, 8_000, 25);

/** Types into the input labelled `label` anywhere on the page (dialogs live outside the container). */
const type = (label: string, value: string) => typeInto(inputLabelled(label), value);

async function press(scope: ParentNode, name: string): Promise<void> {
  const button = [...scope.querySelectorAll<HTMLButtonElement>('button')].find((b) => b.textContent === name);
  if (!button) throw new Error(`no button ${name}`);
  await act(async () => {
    button.click();
  });
}

const awaiting = () => [...container.querySelectorAll<HTMLElement>('[data-testid="safe-awaiting-item"]')];
const awaitingOf = (date: string) => {
  const shown = `${date.slice(8, 10)}/${date.slice(5, 7)}/${date.slice(0, 4)}`;
  const item = awaiting().find((li) => li.textContent?.includes(`Paris — ${shown}`));
  if (!item) throw new Error(`no waiting count of ${date}`);
  return item;
};
const problem = (testId: string) => document.querySelector(`[data-testid="${testId}"]`)?.textContent;
const dialogOpen = (testId: string) => document.querySelector(`[data-testid="${testId}"]`) !== null;

/** Runs `work` (a database read, a server call) inside act, so the screen's updates meanwhile are too. */
async function meanwhile<T>(work: () => Promise<T>): Promise<T> {
  let out: T | undefined;
  await act(async () => {
    out = await work();
  });
  return out as T;
}

function countersignedBy(date: string): Promise<string | null> {
  return meanwhile(() => countersignedName(date));
}

async function countersignedName(date: string): Promise<string | null> {
  const { rows } = await t.database.pool.query<{ name: string | null }>(
    `SELECT countersigned_name AS name FROM safe_counts WHERE site_id = $1 AND fiscal_date = $2 ORDER BY version DESC LIMIT 1`,
    [s.chain.sites.paris, date],
  );
  return rows[0]?.name ?? null;
}

/**
 * The URLs of the requests the client sends while `work` runs, read on their way to the real
 * fetch (which still sends them).
 */
async function requestedUrls(work: () => Promise<void>): Promise<string[]> {
  const urls: string[] = [];
  const realFetch = globalThis.fetch;
  globalThis.fetch = function recordUrl(input, init) {
    urls.push(input instanceof Request ? input.url : String(input));
    return realFetch(input, init);
  };
  try {
    await work();
  } finally {
    globalThis.fetch = realFetch;
  }
  return urls;
}

describe('safe screen: countersignature and e-mails', () => {
  it("lists the month's counts waiting for a countersignature; a wrong manager code is refused at its field and what was typed stays; the code never travels in a URL", async () => {
    const urls = await requestedUrls(countersignWrongThenRight);
    expect(urls.some((u) => u.includes('/fluxfin/contre_signe?'))).toBe(true);
    expect(urls.filter((u) => /[?&](managerCode|contreCode|code)=/i.test(u))).toEqual([]);
  });

  async function countersignWrongThenRight(): Promise<void> {
    await render(<SafeCountPage fixOutboxId={undefined} />);
    await waitFor(() => awaiting().length === 2);
    await press(awaitingOf(today), 'Countersign');
    await waitFor(() => dialogOpen('countersign-form'));
    await type('Login of the countersigning manager', 'chef');
    await type('Manager code', '9999');
    await type('Comment', 'coffre vérifié');
    await submit('countersign-form');
    await waitFor(() => document.body.textContent?.includes('Incorrect manager code.') ?? false);
    expect(inputLabelled('Manager code').getAttribute('aria-invalid')).toBe('true');
    expect(inputLabelled('Login of the countersigning manager').value).toBe('chef');
    expect(inputLabelled('Comment').value).toBe('coffre vérifié');
    expect(await countersignedBy(today)).toBeNull();

    await type('Manager code', '4321');
    await submit('countersign-form');
    await waitFor(() => !dialogOpen('countersign-form'));
    expect(await countersignedBy(today)).toBe('chef');
    expect(notifications.items.map((n) => n.messageId)).toContain('success.safeCountersigned');
    await waitFor(() => awaiting().length === 1);
  }

  it('offline, a countersignature is not sent: the dialog says so and keeps what was typed, and it goes once back online', async () => {
    await render(<SafeCountPage fixOutboxId={undefined} />);
    await waitFor(() => awaiting().some((li) => li.textContent?.includes('Paris')));
    await press(awaitingOf(yesterday), 'Countersign');
    await waitFor(() => dialogOpen('countersign-form'));
    await type('Login of the countersigning manager', 'chef');
    await type('Manager code', '4321');
    await act(async () => setDeviceOnline(false));
    // The dialog says at once that it cannot send; pressing anyway sends nothing.
    await waitFor(() => document.querySelector('[data-testid="offline-notice"]') !== null);
    expect(document.querySelector('[data-testid="offline-notice"]')?.textContent).toBe(
      en['counting.online.countersignNotice'],
    );
    await submit('countersign-form');
    await waitFor(() => problem('countersign-problem') !== undefined);
    expect(problem('countersign-problem')).toBe(en['counting.online.countersign']);
    expect(inputLabelled('Login of the countersigning manager').value).toBe('chef');
    expect(inputLabelled('Manager code').value).toBe('4321');
    expect(await countersignedBy(yesterday)).toBeNull();

    // Closed and opened again on the same count: still typed.
    await press(document.body, 'Cancel');
    await waitFor(() => !dialogOpen('countersign-form'));
    await press(awaitingOf(yesterday), 'Countersign');
    await waitFor(() => dialogOpen('countersign-form'));
    expect(inputLabelled('Manager code').value).toBe('4321');

    await act(async () => setDeviceOnline(true));
    await waitFor(() => document.querySelector('[data-testid="offline-notice"]') === null);
    await submit('countersign-form');
    await waitFor(() => !dialogOpen('countersign-form'));
    expect(await countersignedBy(yesterday)).toBe('chef');
  });

  it("e-mails a count's receipt to the site's directors and says MailEnvoye", async () => {
    await render(<SafeCountPage fixOutboxId={undefined} />);
    await waitFor(() => container.querySelector('[data-testid="safe-awaiting"]') !== null);
    // Both Paris counts are countersigned now; a recount of today is a new version, waiting again.
    const res = await meanwhile(() =>
      t.app.inject({
        method: 'POST',
        url: `/api/coffre/save?id=${s.manager.id}`,
        headers: s.manager.headers,
        payload: {
          site: s.chain.sites.paris,
          dateFiscale: today,
          openingCents: 0,
          depositsCents: 0,
          withdrawalsCents: 0,
          contents: [],
        },
      }),
    );
    expect(res.statusCode).toBe(200);
    await act(async () => {
      await queryClient.invalidateQueries();
    });
    await waitFor(() => awaiting().length === 1);
    await press(awaitingOf(today), 'E-mail the receipt');
    await waitFor(() => dialogOpen('mail-form'));
    await submit('mail-form');
    expect(problem('mail-problem')).toBe(en['counting.mail.needRecipient']);
    await type("Recipients' role", 'DIRECTEUR');
    await submit('mail-form');
    await waitFor(() => !dialogOpen('mail-form'));
    await waitForMail({ received }, 1);
    expect(received.map((m) => m.subject)).toEqual([
      `Safe count of ${today.slice(8, 10)}/${today.slice(5, 7)}/${today.slice(0, 4)} — Paris`,
    ]);
    expect(received[0]?.attachments[0]?.contentType).toBe('application/pdf');
    expect(notifications.items.map((n) => n.messageId)).toContain('success.MailEnvoye');
  });

  it('reports a missing count of a site with none that day; nobody to mail is said in the dialog', async () => {
    await render(<SafeCountPage fixOutboxId={undefined} />);
    // Lyon comes first (sites in name order) and has no safe count today.
    await waitFor(() => container.textContent?.includes('No safe count for this site and day.') ?? false);
    await press(container, 'Report the missing count');
    await waitFor(() => dialogOpen('mail-form'));
    await type("Recipients' role", 'NOBODY');
    await submit('mail-form');
    await waitFor(() => problem('mail-problem') === en['counting.mail.noRecipient']);
    await type("Recipients' role", 'DIRECTEUR');
    await submit('mail-form');
    await waitFor(() => !dialogOpen('mail-form'));
    await waitForMail({ received }, 1);
    expect(
      received.map(
        (m) => m.to && (Array.isArray(m.to) ? m.to : [m.to]).flatMap((a) => a.value.map((v) => v.address)),
      ),
    ).toEqual([['dir-lyon@example.com']]);
    expect(received[0]?.subject).toContain('Lyon');
  });
});

describe("the manager's own code", () => {
  it('is typed twice, saved on the server only, and then proves the manager at a countersignature', async () => {
    await render(<SafeCountPage fixOutboxId={undefined} />);
    await press(container, 'Set my manager code');
    await waitFor(() => dialogOpen('manager-code-form'));
    await type('New manager code', '2468');
    await type('New manager code, once more', '2486');
    await submit('manager-code-form');
    await waitFor(() => document.body.textContent?.includes(en['counting.safe.codeMismatch']) ?? false);
    await type('New manager code, once more', '2468');
    await submit('manager-code-form');
    await waitFor(() => !dialogOpen('manager-code-form'));
    expect(notifications.items.map((n) => n.messageId)).toContain('success.managerCodeSaved');
    const check = await meanwhile(() =>
      t.app.inject({
        url: `/api/bo/checkContreCode?id=${s.manager.id}&code=manager&contreCode=2468`,
        headers: s.manager.headers,
      }),
    );
    expect(check.json()).toEqual({ valide: true, managerName: 'manager' });
  });
});

describe('a cash count of a terminal the site does not have', () => {
  it('is kept by the outbox as needing attention, with the translated reason on the cash screen', async () => {
    const user = session.user!;
    await saveCashCount(
      { id: user.id, login: user.login },
      {
        site: s.chain.sites.paris,
        dateFiscale: today,
        caisse: 7,
        cash: [{ denominationCents: 1000, quantity: 1 }],
        chequesCents: 0,
        mealVouchersCents: 0,
        cardSlipsCents: null,
        comment: '',
      },
    );
    const result = await meanwhile(() =>
      replayOutbox({
        db: db(),
        lock: webLock(),
        apiBase,
        credentials: readStoredCredentials,
        ignoreSchedule: true,
      }),
    );
    expect(result).toMatchObject({ sent: 0 });
    const [item] = await db().outbox.toArray();
    expect(item).toMatchObject({ state: 'needsAttention', reason: 'UnknownTerminal', status: 400 });
    const { rows } = await meanwhile(() =>
      t.database.pool.query('SELECT 1 FROM cash_counts WHERE terminal_id = 7'),
    );
    expect(rows).toHaveLength(0);

    await render(<CashCountPage action="saisie" fixOutboxId={undefined} />);
    // Lyon first: switch the list to Paris by opening the queued count for fixing.
    await rerenderScreen(
      { container, root },
      <CashCountPage action="saisie" fixOutboxId={item!.id} />,
      'en',
      en,
    );
    await waitFor(() => container.querySelector('[data-sync-state="needsAttention"]') !== null);
    expect(container.querySelector('[data-sync-state="needsAttention"]')?.textContent).toContain(
      en['error.UnknownTerminal'],
    );
  });
});
