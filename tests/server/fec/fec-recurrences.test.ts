/**
 * FEC recurrences (issue #29 "FEC recurrences", decision 0043) through the real application, its
 * job queue and the real SMTP server of the tests: a rule gives its period in the company's zone;
 * "run now" keeps the very file `GET bo/fec/export` answers for that period, which passes the
 * checker, lists it on bo/fec/files and mails it as an attachment; a second run and a retried run
 * of the same period make no second file and no second mail; a period still open in one site
 * waits; rights and scope are those of the export; every write is audit-logged.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'content-disposition';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkFec } from '../../../src/server/fec/fec-checker.ts';
import {
  dueFecRecurrences,
  fecPeriod,
  fiscalToday,
  PeriodNotClosedError,
  runFecRecurrence,
} from '../../../src/server/fec/recurrence-run.ts';
import { FEC_RECURRENCE_RUN } from '../../../src/server/fec/recurrence-store.ts';
import type { JobContext } from '../../../src/server/jobs/contract.ts';
import { addRunFile, insertRun } from '../../../src/server/jobs/run-records.ts';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { openTestMailbox, type TestMailbox, waitForMail, waitForMailQueue } from '../../helpers/smtp.ts';
import { loadChain } from '../../reports/sales-analyses/chain.ts';
import { waitUntil } from '../jobs/queue-helpers.ts';

const PASSWORD = 'Correct-Horse1';
const SIREN = '552100554';
const ACCOUNTANT = 'cabinet@example.com';

describe('the period of a rule', () => {
  it('is the previous month, the previous ISO week or the day before the local date of the run', () => {
    expect(fecPeriod('PREVIOUS_MONTH', '2026-03-01')).toEqual({
      dateDebut: '2026-02-01',
      dateFin: '2026-02-28',
    });
    expect(fecPeriod('PREVIOUS_MONTH', '2026-01-15')).toEqual({
      dateDebut: '2025-12-01',
      dateFin: '2025-12-31',
    });
    expect(fecPeriod('PREVIOUS_WEEK', '2026-12-09')).toEqual({
      dateDebut: '2026-11-30',
      dateFin: '2026-12-06',
    });
    expect(fecPeriod('PREVIOUS_WEEK', '2026-12-07')).toEqual({
      dateDebut: '2026-11-30',
      dateFin: '2026-12-06',
    });
    expect(fecPeriod('PREVIOUS_DAY', '2026-03-01')).toEqual({
      dateDebut: '2026-02-28',
      dateFin: '2026-02-28',
    });
  });

  it("takes the site's day start into its fiscal today", () => {
    const at = new Date('2026-12-01T01:30:00Z'); // 02:30 in Paris
    expect(fiscalToday({ timeZone: 'Europe/Paris', dayStart: '00:00' }, at)).toBe('2026-12-01');
    expect(fiscalToday({ timeZone: 'Europe/Paris', dayStart: '04:00' }, at)).toBe('2026-11-30');
  });
});

describe('FEC recurrences', () => {
  let t: TestApp;
  let mailbox: TestMailbox;
  let dataDir: string;
  const users: Record<string, { id: number; headers: Record<string, string> }> = {};

  beforeAll(async () => {
    mailbox = await openTestMailbox();
    dataDir = await mkdtemp(path.join(tmpdir(), 'comptoir-fecrec-'));
    t = await createTestApp({ config: { smtpUrl: mailbox.url, dataDir } });
    await loadChain(t.database);
    await t.database.pool.query('UPDATE companies SET siren = $1 WHERE id = 1', [SIREN]);
    const make = async (
      login: string,
      droits: string[],
      scope: { allSites?: boolean; restaurantIds?: number[] },
    ) => {
      const id = await t.createUser({ login, password: PASSWORD, droits, ...scope });
      users[login] = { id, headers: await t.signIn(login, PASSWORD) };
    };
    await make('compta', ['FEC_CONFIGURATION'], { allSites: true });
    await make('reports', ['RAPPORTS'], { allSites: true });
    await make('paris', ['FEC_CONFIGURATION'], { restaurantIds: [1] });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await mailbox?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  const call = (login: string, method: 'GET' | 'POST', url: string, payload?: object) => {
    const user = users[login]!;
    const sep = url.includes('?') ? '&' : '?';
    return t.app.inject({
      method,
      url: `/api/bo/fec/${url}${sep}id=${user.id}`,
      headers: user.headers,
      ...(payload ? { payload } : method === 'POST' ? { payload: {} } : {}),
    });
  };

  let recurrenceId = 0;

  it('saves a recurrence monthly on the 1st at 06:00 for the previous month by default, audit-logged', async () => {
    const res = await call('compta', 'POST', 'saveRecurrence?societe=1', {
      libelle: 'FEC mensuel',
      destinataires: [ACCOUNTANT],
    });
    expect(res.statusCode, res.body).toBe(200);
    const saved = res.json();
    expect(saved).toMatchObject({
      societe: 1,
      type: 'MONTHLY',
      jourDuMois: 1,
      heure: 6,
      minute: 0,
      periode: 'PREVIOUS_MONTH',
      destinataires: [ACCOUNTANT],
      dernierEnvoi: null,
    });
    recurrenceId = saved.id;
    const audit = await t.database.pool.query(
      `SELECT user_id, after->>'libelle' AS libelle FROM audit_log WHERE action = 'fecRecurrence.save' AND target_id = $1`,
      [String(recurrenceId)],
    );
    expect(audit.rows).toEqual([{ user_id: users.compta!.id, libelle: 'FEC mensuel' }]);
    const list = await call('compta', 'GET', 'recurrences?societe=1');
    expect(list.json().recurrences.map((r: { id: number }) => r.id)).toEqual([recurrenceId]);
  });

  it('checks each recipient address: one refused refuses the save, naming it, and saves nothing', async () => {
    const res = await call('compta', 'POST', 'saveRecurrence?societe=1', {
      libelle: 'FEC refusé',
      destinataires: [ACCOUNTANT, 'comptable.example.com'],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'BadRequest',
      details: { issues: [{ where: 'body', path: '/destinataires/1' }] },
    });
    const count = await t.database.pool.query('SELECT count(*)::int AS n FROM fec_recurrences');
    expect(count.rows[0].n).toBe(1);
  });

  it("is due on the 1st at 06:00 in the company's zone, once", async () => {
    const items = await dueFecRecurrences(
      t.database.pool,
      new Date('2026-11-30T12:00:00Z'),
      new Date('2026-12-02T12:00:00Z'),
    );
    expect(items.map((i) => [i.data.recurrenceId, i.plannedAt.toISOString(), i.singletonKey])).toEqual([
      [recurrenceId, '2026-12-01T05:00:00.000Z', `fec:${recurrenceId}:2026-12-01T05:00:00.000Z`],
    ]);
  });

  it('refuses a user without FEC_CONFIGURATION and one whose scope misses a site of the company', async () => {
    for (const [login, url, method] of [
      ['reports', 'recurrences?societe=1', 'GET'],
      ['reports', 'files?societe=1', 'GET'],
      ['reports', 'saveRecurrence?societe=1', 'POST'],
      ['paris', 'recurrences?societe=1', 'GET'],
      ['paris', 'saveRecurrence?societe=1', 'POST'],
      ['paris', `runRecurrenceNow?societe=1&recurrence=${recurrenceId}`, 'POST'],
      ['paris', 'files?societe=1', 'GET'],
      ['paris', 'file?societe=1&fichier=1', 'GET'],
    ] as const) {
      const res = await call(login, method, url, url.startsWith('save') ? { libelle: 'x' } : undefined);
      expect(res.statusCode, `${login} ${url}`).toBe(403);
    }
    const count = await t.database.pool.query('SELECT count(*)::int AS n FROM fec_recurrences');
    expect(count.rows[0].n).toBe(1);
  });

  let fileId = 0;

  it('runs now: keeps the export of the previous month byte for byte, checked, listed and mailed', async () => {
    const res = await call('compta', 'POST', `runRecurrenceNow?societe=1&recurrence=${recurrenceId}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ statut: 'QUEUED' });
    await waitUntil(async () => {
      const files = await call('compta', 'GET', 'files?societe=1');
      return files.json().fichiers.length === 1 && files.json().fichiers[0].run?.statut === 'SUCCEEDED';
    });
    // The previous month of today's date (the run's), as the export gives it today.
    const today = new Date();
    const { dateDebut, dateFin } = fecPeriod(
      'PREVIOUS_MONTH',
      `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, '0')}-${String(today.getDate()).padStart(2, '0')}`,
    );
    const files = (await call('compta', 'GET', 'files?societe=1')).json().fichiers;
    expect(files[0]).toMatchObject({
      recurrenceId,
      libelle: 'FEC mensuel',
      dateDebut,
      dateFin,
      sitesExclus: [],
    });
    fileId = files[0].id;
    const kept = await call('compta', 'GET', `file?societe=1&fichier=${fileId}`);
    expect(kept.statusCode).toBe(200);
    const exported = await call(
      'compta',
      'GET',
      `export?societe=1&dateDebut=${dateDebut}&dateFin=${dateFin}`,
    );
    expect(exported.statusCode).toBe(200);
    expect(Buffer.compare(kept.rawPayload, exported.rawPayload)).toBe(0);
    const name = parse(String(kept.headers['content-disposition'])).parameters.filename!;
    expect(name).toBe(`${SIREN}FEC${dateFin.replaceAll('-', '')}.txt`);
    expect(checkFec(iconv.decode(kept.rawPayload, 'ISO-8859-15'), name)).toEqual([]);
    await waitForMail(mailbox, 1);
    const mail = mailbox.received[0]!;
    expect(mail.to).toMatchObject({ value: [{ address: ACCOUNTANT }] });
    expect(mail.subject).toContain('FEC mensuel');
    expect(mail.attachments.map((a) => a.filename)).toEqual([name]);
    expect(Buffer.compare(mail.attachments[0]!.content, kept.rawPayload)).toBe(0);
  });

  it('makes no second file and no second mail for the same period: a second run, then a retried run', async () => {
    const res = await call('compta', 'POST', `runRecurrenceNow?societe=1&recurrence=${recurrenceId}`);
    expect(res.statusCode).toBe(200);
    const { runId } = res.json();
    await waitUntil(async () => {
      const run = await t.database.pool.query('SELECT status FROM job_runs WHERE id = $1', [runId]);
      return run.rows[0]?.status === 'succeeded';
    });
    // A retried try of one run: the same run's job body again, attempt 2, as the queue gives it.
    const data = { recurrenceId, plannedAt: new Date().toISOString() };
    const retried = await insertRun(t.database.pool, {
      kind: FEC_RECURRENCE_RUN,
      data,
      singletonKey: null,
      plannedAt: new Date(),
    });
    const contextOf = (attempt: number): JobContext => ({
      pool: t.database.pool,
      runId: retried!,
      plannedAt: new Date(data.plannedAt),
      attempt,
      queueMail: async (message, key) => {
        await t.app.jobs.queueMail(message, key, retried!);
      },
      recordFile: (file) => addRunFile(t.database.pool, retried!, file),
      now: () => new Date(),
    });
    const options = { database: t.database, dataDir };
    const first = await runFecRecurrence(options, data, contextOf(1));
    const second = await runFecRecurrence(options, data, contextOf(2));
    expect(first).toMatchObject({ written: false, mails: 1 });
    expect(second).toMatchObject({ written: false, mails: 1 });
    await waitForMailQueue(t.database.pool);
    expect(mailbox.received).toHaveLength(1);
    const files = await t.database.pool.query('SELECT id FROM fec_files');
    expect(files.rows).toEqual([{ id: fileId }]);
  });

  it('waits while the period is still open in one site of the company, and writes nothing', async () => {
    // Company 2 gets a site in Pago Pago (UTC−11): at 06:00 in Paris on 1 December, 30 November is not over there.
    await t.database.pool.query(
      `INSERT INTO sites (id, libelle, company_id, time_zone) VALUES (40, 'Pago Pago', 2, 'Pacific/Pago_Pago')`,
    );
    const saved = await call('compta', 'POST', 'saveRecurrence?societe=2', { libelle: 'FEC Londres' });
    expect(saved.statusCode, saved.body).toBe(200);
    const id = saved.json().id;
    const at = new Date('2026-12-01T05:00:00Z');
    const runId = await insertRun(t.database.pool, {
      kind: FEC_RECURRENCE_RUN,
      data: { recurrenceId: id },
      singletonKey: null,
      plannedAt: at,
    });
    const ctx: JobContext = {
      pool: t.database.pool,
      runId: runId!,
      plannedAt: at,
      attempt: 1,
      queueMail: async () => {
        throw new Error('no mail expected');
      },
      recordFile: (file) => addRunFile(t.database.pool, runId!, file),
      now: () => at,
    };
    await expect(
      runFecRecurrence(
        { database: t.database, dataDir },
        { recurrenceId: id, plannedAt: at.toISOString() },
        ctx,
      ),
    ).rejects.toThrow(PeriodNotClosedError);
    const files = await t.database.pool.query(
      'SELECT count(*)::int AS n FROM fec_files WHERE company_id = 2',
    );
    expect(files.rows[0].n).toBe(0);
  });

  it('removes a recurrence, audit-logged; its file stays listed', async () => {
    const res = await call('compta', 'POST', `deleteRecurrence?societe=1&recurrence=${recurrenceId}`);
    expect(res.statusCode, res.body).toBe(200);
    const audit = await t.database.pool.query(
      `SELECT count(*)::int AS n FROM audit_log WHERE action = 'fecRecurrence.remove' AND target_id = $1`,
      [String(recurrenceId)],
    );
    expect(audit.rows[0].n).toBe(1);
    const files = (await call('compta', 'GET', 'files?societe=1')).json().fichiers;
    expect(files).toMatchObject([{ id: fileId, recurrenceId: null }]);
    const again = await call('compta', 'GET', `file?societe=1&fichier=${fileId}`);
    expect(again.statusCode).toBe(200);
  });
});
