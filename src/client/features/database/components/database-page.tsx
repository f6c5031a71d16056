/**
 * /config/bdd (issue #30, decision 0039): a column of sections — backup, restore, automatic
 * backup, reindex, previous databases — above the latest runs with their progress (polled while
 * one is under way, so a reload finds it again). Adding a section is adding one line to
 * {@link DATABASE_SECTIONS}. Right ACCES_BASE.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ComponentType, useEffect, useRef, useState } from 'react';
import { useIntl } from 'react-intl';
import { type AutoBackupConfig, type DatabaseRun, PG_CLIENT_PACKAGE } from '../../../../contract/database.ts';
import { displayInstant } from '../../../../contract/dates.ts';
import type { SuccessCode } from '../../../../contract/errors.ts';
import { ApiFailure } from '../../../lib/http.ts';
import { notify } from '../../../lib/notifications.ts';
import { keyedFailure, RequestKeys } from '../../../lib/request-keys.ts';
import { session } from '../../../lib/session.ts';
import { Button } from '../../../ui/button.tsx';
import { Card, CardTitle } from '../../../ui/card.tsx';
import { Checkbox } from '../../../ui/checkbox.tsx';
import { FormRefusal } from '../../../ui/form.tsx';
import { Select } from '../../../ui/select.tsx';
import { TextField } from '../../../ui/text-field.tsx';
import {
  databaseQueries,
  dropPreviousDatabase,
  saveAutoBackup,
  startOperation,
} from '../database-queries.ts';
import './database.css';

/** What every section gets: the signed-in user's id. */
export interface DatabaseSectionProps {
  userId: number;
}

type T = (id: string, values?: Record<string, string | number>) => string;

function useT(): T {
  const intl = useIntl();
  return (id, values) => intl.formatMessage({ id }, values);
}

/** The message of a failed call: the server's code translated, with its reason when it gave one. */
function failureText(t: T, e: unknown): string {
  const outcome = keyedFailure(e, { offline: 'error.Network Error', unexpected: 'app.unexpectedError' });
  if (e instanceof ApiFailure && typeof e.details?.reason === 'string') {
    return `${t(outcome.messageId)} (${t(`database.reason.${e.details.reason}`)})`;
  }
  return t(outcome.messageId);
}

/** Remembers the runs this page started, and says SaveOk / RestaureOk / ReindexOk when one succeeds. */
const startedRuns = new Set<string>();
const SUCCESS_OF: Record<string, SuccessCode> = {
  'database.backup': 'SaveOk',
  'database.restore': 'RestaureOk',
  'database.reindex': 'ReindexOk',
};

/** Starts an operation from a section: its button, its refusal. */
function useOperation(userId: number) {
  const t = useT();
  const queryClient = useQueryClient();
  const keys = useRef(new RequestKeys());
  const [refusal, setRefusal] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function start(path: Parameters<typeof startOperation>[1], params: { dest?: string; src?: string }) {
    setRefusal(null);
    setBusy(true);
    try {
      const runId = await startOperation(
        userId,
        path,
        params,
        keys.current.keyFor(`${path}:${JSON.stringify(params)}`),
      );
      keys.current.settle();
      startedRuns.add(runId);
      await queryClient.invalidateQueries({ queryKey: databaseQueries.all(userId) });
    } catch (e) {
      if (keyedFailure(e, { offline: '', unexpected: '' }).settle) keys.current.settle();
      setRefusal(failureText(t, e));
    } finally {
      setBusy(false);
    }
  }
  return { start, refusal, busy };
}

function defaultBackupName(): string {
  const now = new Date();
  const p = (n: number) => String(n).padStart(2, '0');
  return `manual/backup-${now.getFullYear()}${p(now.getMonth() + 1)}${p(now.getDate())}-${p(now.getHours())}${p(now.getMinutes())}.backup`;
}

function ToolsNotice({ userId }: DatabaseSectionProps) {
  const t = useT();
  const status = useQuery(databaseQueries.status(userId));
  if (!status.data || status.data.toolsVersion !== null) return null;
  return (
    <p className="db-warning" role="alert">
      {t('database.toolsMissing', { package: PG_CLIENT_PACKAGE })}
    </p>
  );
}

/** Backup: a name in the backup folder, then start. */
function BackupSection({ userId }: DatabaseSectionProps) {
  const t = useT();
  const status = useQuery(databaseQueries.status(userId));
  const [dest, setDest] = useState(defaultBackupName);
  const op = useOperation(userId);
  return (
    <Card labelledBy="db-backup">
      <CardTitle id="db-backup">{t('database.backup.title')}</CardTitle>
      <p className="ui-muted">{t('database.backup.intro', { folder: status.data?.folder ?? '' })}</p>
      <TextField label={t('database.backup.dest')} value={dest} onChange={setDest} />
      <FormRefusal text={op.refusal} />
      <div className="ui-buttons">
        <Button
          variant="primary"
          isDisabled={op.busy}
          onPress={() => void op.start('bo/backupDataBase', { dest })}
        >
          {t('database.backup.start')}
        </Button>
      </div>
    </Card>
  );
}

/** Restore: the backups with their manifest; one is restored after a confirmation. */
function RestoreSection({ userId }: DatabaseSectionProps) {
  const t = useT();
  const files = useQuery(databaseQueries.files(userId));
  const [chosen, setChosen] = useState<string | null>(null);
  const op = useOperation(userId);
  return (
    <Card labelledBy="db-restore">
      <CardTitle id="db-restore">{t('database.restore.title')}</CardTitle>
      <p className="ui-muted">{t('database.restore.intro')}</p>
      {!files.data ? (
        <p className="ui-muted">{t('database.loading')}</p>
      ) : files.data.files.length === 0 ? (
        <p className="ui-muted">{t('database.restore.none')}</p>
      ) : (
        <ul className="db-list" aria-label={t('database.restore.list')}>
          {files.data.files.map((f) => {
            const { date, time } = displayInstant(f.createdAt);
            return (
              <li key={f.path} className="db-item">
                <span className="db-name">{f.path}</span>
                <span className="ui-muted">
                  {t('database.restore.file', {
                    date: `${date} ${time}`,
                    size: Math.ceil(f.bytes / 1024),
                    rows: f.rows,
                    version: f.appVersion,
                  })}
                </span>
                {chosen === f.path ? (
                  <span className="ui-buttons">
                    <Button
                      variant="primary"
                      isDisabled={op.busy}
                      onPress={() => {
                        setChosen(null);
                        void op.start('bo/restoreDataBase', { src: f.path });
                      }}
                    >
                      {t('database.restore.confirm')}
                    </Button>
                    <Button onPress={() => setChosen(null)}>{t('database.cancel')}</Button>
                  </span>
                ) : (
                  <Button
                    onPress={() => setChosen(f.path)}
                    aria-label={t('database.restore.one', { path: f.path })}
                  >
                    {t('database.restore.start')}
                  </Button>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {chosen ? (
        <p className="db-warning" role="status">
          {t('database.restore.warning')}
        </p>
      ) : null}
      <FormRefusal text={op.refusal} />
    </Card>
  );
}

const RULE_TYPES = ['DAILY', 'WEEKDAYS', 'WEEKLY', 'MONTHLY'] as const;

/** Automatic backup: active, rule, folder, how many kept (also the start-up's backup step). */
export function AutoBackupSection({ userId }: DatabaseSectionProps) {
  const t = useT();
  const queryClient = useQueryClient();
  const saved = useQuery(databaseQueries.autoBackup(userId));
  const [form, setForm] = useState<AutoBackupConfig | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const keys = useRef(new RequestKeys());
  const lastAuto = useQuery(databaseQueries.status(userId)).data?.runs.find(
    (r) => r.kind === 'database.autobackup',
  );
  useEffect(() => {
    if (saved.data && !form) setForm(saved.data);
  }, [saved.data, form]);
  if (!form) {
    return (
      <Card labelledBy="db-auto">
        <CardTitle id="db-auto">{t('database.auto.title')}</CardTitle>
        <p className="ui-muted">{t('database.loading')}</p>
      </Card>
    );
  }
  const set = (patch: Partial<AutoBackupConfig>) => setForm({ ...form, ...patch });
  const num = (v: string, fallback: number) => (/^\d+$/.test(v) ? Number(v) : fallback);
  async function save() {
    if (!form || busy) return;
    setRefusal(null);
    setBusy(true);
    try {
      const answer = await saveAutoBackup(userId, form, keys.current.keyFor(JSON.stringify(form)));
      keys.current.settle();
      queryClient.setQueryData(databaseQueries.autoBackup(userId).queryKey, answer);
      setForm(answer);
      notify.success('SuccessMod');
    } catch (e) {
      if (keyedFailure(e, { offline: '', unexpected: '' }).settle) keys.current.settle();
      setRefusal(failureText(t, e));
    } finally {
      setBusy(false);
    }
  }
  return (
    <Card labelledBy="db-auto">
      <CardTitle id="db-auto">{t('database.auto.title')}</CardTitle>
      {lastAuto?.status === 'failed' ? (
        <p className="db-warning" role="alert">
          {t('database.auto.failed', { date: instantText(lastAuto.endedAt) })}
        </p>
      ) : null}
      <Checkbox isSelected={form.active} onChange={(active) => set({ active })}>
        {t('database.auto.active')}
      </Checkbox>
      <Select
        label={t('database.auto.type')}
        options={RULE_TYPES.map((r) => ({ id: r, label: t(`database.auto.type.${r}`) }))}
        value={form.type}
        onChange={(v) => set({ type: v as AutoBackupConfig['type'] })}
      />
      {form.type === 'WEEKLY' ? (
        <fieldset className="db-days">
          <legend>{t('database.auto.days')}</legend>
          {[1, 2, 3, 4, 5, 6, 7].map((d) => (
            <Checkbox
              key={d}
              isSelected={form.jours.includes(d)}
              onChange={(on) =>
                set({ jours: on ? [...form.jours, d].sort() : form.jours.filter((x) => x !== d) })
              }
            >
              {t(`database.auto.day.${d}`)}
            </Checkbox>
          ))}
        </fieldset>
      ) : null}
      {form.type === 'MONTHLY' ? (
        <TextField
          label={t('database.auto.dayOfMonth')}
          value={form.jourDuMois === null ? '' : String(form.jourDuMois)}
          onChange={(v) => set({ jourDuMois: v === '' ? null : num(v, form.jourDuMois ?? 1) })}
        />
      ) : null}
      <div className="db-row">
        <TextField
          label={t('database.auto.hour')}
          value={String(form.heure)}
          onChange={(v) => set({ heure: num(v, form.heure) })}
        />
        <TextField
          label={t('database.auto.minute')}
          value={String(form.minute)}
          onChange={(v) => set({ minute: num(v, form.minute) })}
        />
      </div>
      <TextField
        label={t('database.auto.folder')}
        value={form.folder}
        onChange={(folder) => set({ folder })}
      />
      <TextField
        label={t('database.auto.keep')}
        value={String(form.keep)}
        onChange={(v) => set({ keep: num(v, form.keep) })}
      />
      <FormRefusal text={refusal} />
      <div className="ui-buttons">
        <Button variant="primary" isDisabled={busy} onPress={() => void save()}>
          {t('database.auto.save')}
        </Button>
      </div>
    </Card>
  );
}

/** Reindex: one button; the run tells the time it took. */
function ReindexSection({ userId }: DatabaseSectionProps) {
  const t = useT();
  const op = useOperation(userId);
  const last = useQuery(databaseQueries.status(userId)).data?.runs.find(
    (r) => r.kind === 'database.reindex' && r.status === 'succeeded',
  );
  return (
    <Card labelledBy="db-reindex">
      <CardTitle id="db-reindex">{t('database.reindex.title')}</CardTitle>
      <p className="ui-muted">{t('database.reindex.intro')}</p>
      {last?.ms != null ? (
        <p className="ui-muted">
          {t('database.reindex.last', {
            date: instantText(last.endedAt),
            seconds: (last.ms / 1000).toFixed(1),
          })}
        </p>
      ) : null}
      <FormRefusal text={op.refusal} />
      <div className="ui-buttons">
        <Button
          variant="primary"
          isDisabled={op.busy}
          onPress={() => void op.start('bo/reindexationDataBase', {})}
        >
          {t('database.reindex.start')}
        </Button>
      </div>
    </Card>
  );
}

/** Previous databases kept by restores, each dropped after a confirmation. */
function PreviousSection({ userId }: DatabaseSectionProps) {
  const t = useT();
  const queryClient = useQueryClient();
  const status = useQuery(databaseQueries.status(userId));
  const [chosen, setChosen] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const keys = useRef(new RequestKeys());
  async function drop(name: string) {
    setRefusal(null);
    try {
      await dropPreviousDatabase(userId, name, keys.current.keyFor(name));
      keys.current.settle();
      setChosen(null);
      await queryClient.invalidateQueries({ queryKey: databaseQueries.all(userId) });
      notify.success('SuccessMod');
    } catch (e) {
      if (keyedFailure(e, { offline: '', unexpected: '' }).settle) keys.current.settle();
      setRefusal(failureText(t, e));
    }
  }
  const previous = status.data?.previous ?? [];
  return (
    <Card labelledBy="db-previous">
      <CardTitle id="db-previous">{t('database.previous.title')}</CardTitle>
      {previous.length === 0 ? (
        <p className="ui-muted">{t('database.previous.none')}</p>
      ) : (
        <ul className="db-list" aria-label={t('database.previous.title')}>
          {previous.map((p) => (
            <li key={p.name} className="db-item">
              <span className="db-name">{p.name}</span>
              <span className="ui-muted">
                {t('database.previous.size', { size: Math.ceil(p.bytes / 1048576) })}
              </span>
              {chosen === p.name ? (
                <span className="ui-buttons">
                  <Button variant="primary" onPress={() => void drop(p.name)}>
                    {t('database.previous.confirm')}
                  </Button>
                  <Button onPress={() => setChosen(null)}>{t('database.cancel')}</Button>
                </span>
              ) : (
                <Button
                  onPress={() => setChosen(p.name)}
                  aria-label={t('database.previous.one', { name: p.name })}
                >
                  {t('database.previous.drop')}
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      <FormRefusal text={refusal} />
    </Card>
  );
}

function instantText(iso: string | null): string {
  if (!iso) return '';
  const { date, time } = displayInstant(iso);
  return `${date} ${time}`;
}

/** The latest runs with their step; says the success of a run this page started once it ends. */
function RunsSection({ userId }: DatabaseSectionProps) {
  const t = useT();
  const queryClient = useQueryClient();
  const status = useQuery(databaseQueries.status(userId));
  const runs = status.data?.runs ?? [];
  useEffect(() => {
    for (const run of runs) {
      if (!startedRuns.has(run.id) || run.status === 'queued' || run.status === 'running') continue;
      startedRuns.delete(run.id);
      const success = SUCCESS_OF[run.kind];
      if (run.status === 'succeeded' && success) notify.success(success);
      void queryClient.invalidateQueries({ queryKey: databaseQueries.all(userId) });
    }
  }, [runs, queryClient, userId]);
  return (
    <Card labelledBy="db-runs">
      <CardTitle id="db-runs">{t('database.runs.title')}</CardTitle>
      {runs.length === 0 ? (
        <p className="ui-muted">{t('database.runs.none')}</p>
      ) : (
        <ul className="db-list" aria-label={t('database.runs.title')} aria-live="polite">
          {runs.map((r) => (
            <RunLine key={r.id} run={r} t={t} />
          ))}
        </ul>
      )}
    </Card>
  );
}

function RunLine({ run, t }: { run: DatabaseRun; t: T }) {
  const active = run.status === 'queued' || run.status === 'running';
  return (
    <li className="db-item" data-status={run.status}>
      <span className="db-name">{t(`database.kind.${run.kind}`)}</span>
      {run.path ? <span className="db-path">{run.path}</span> : null}
      <span>
        {t(`database.status.${run.status}`)}
        {active && run.step ? ` — ${t('database.step', { step: run.step })}` : ''}
      </span>
      <span className="ui-muted">{instantText(run.endedAt ?? run.startedAt ?? run.queuedAt)}</span>
      {run.status === 'failed' ? (
        <span className="db-error">
          {run.reason ? t(`database.reason.${run.reason}`) : (run.error ?? '')}
        </span>
      ) : null}
    </li>
  );
}

/** The sections of /config/bdd, top to bottom: one more section is one more line. */
export const DATABASE_SECTIONS: readonly ComponentType<DatabaseSectionProps>[] = [
  ToolsNotice,
  RunsSection,
  BackupSection,
  RestoreSection,
  AutoBackupSection,
  ReindexSection,
  PreviousSection,
];

/**
 * The /config/bdd screen: `sections` in order (default {@link DATABASE_SECTIONS}; the route adds
 * the purge's, which lives in its own feature folder).
 */
export function DatabasePage({
  sections = DATABASE_SECTIONS,
}: {
  sections?: readonly ComponentType<DatabaseSectionProps>[];
}) {
  const t = useT();
  const userId = session.user?.id ?? 0;
  return (
    <div className="db-page">
      <h1 className="db-title">{t('database.title')}</h1>
      {sections.map((Section, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the list is a constant.
        <Section key={i} userId={userId} />
      ))}
    </div>
  );
}
