/**
 * /fec/recurrencesfec (issue #29 "FEC recurrences", right FEC_CONFIGURATION, decision 0043): the
 * chosen company's scheduled FECs — when (the report subscriptions' rule vocabulary, in the
 * sites' time), which period, who gets the file by mail — with their last run; create, edit,
 * run now, delete. The files the runs kept are listed and downloaded on /fec (fec-files.tsx).
 * The recipients are a list, one address per line (add, remove, each checked at its line).
 * The form checks what the server checks first and keeps what was typed on a refusal.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useRef, useState } from 'react';
import { useIntl } from 'react-intl';
import { useSnapshot } from 'valtio';
import { displayInstant } from '../../../../contract/dates.ts';
import {
  FEC_PERIODS,
  type FecPeriod,
  type FecRecurrence,
  MAX_FEC_RECIPIENTS,
} from '../../../../contract/fec-recurrences.ts';
import { LANGUAGES, type Language } from '../../../../contract/reports.ts';
import { RULE_TYPES, type RuleType } from '../../../../contract/subscriptions.ts';
import { ApiFailure } from '../../../lib/http.ts';
import { notifyFailure } from '../../../lib/notifications.ts';
import { keyedFailure, RequestKeys } from '../../../lib/request-keys.ts';
import { i18nState } from '../../../lib/i18n.tsx';
import { session } from '../../../lib/session.ts';
import { Button } from '../../../ui/button.tsx';
import { Card, CardTitle } from '../../../ui/card.tsx';
import { Checkbox } from '../../../ui/checkbox.tsx';
import { FormFooter, ValidatedForm } from '../../../ui/form.tsx';
import { RemovalDialog } from '../../../ui/removal-dialog.tsx';
import { Select } from '../../../ui/select.tsx';
import { Table } from '../../../ui/table.tsx';
import { TextField } from '../../../ui/text-field.tsx';
import { actOnFecRecurrence, fecQueries, fecRecurrenceQueries, saveFecRecurrence } from '../fec-queries.ts';
import '../../../ui/page.css';
import './fec-recurrences.css';

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const EMAIL = /^[^\s@,]+@[^\s@,]+\.[^\s@,]+$/;

/** What the form holds. */
interface Draft {
  id?: number;
  libelle: string;
  type: RuleType;
  jours: number[];
  day: string;
  time: string;
  periode: FecPeriod;
  /** One address a line, as typed; blank lines are dropped on save. */
  destinataires: string[];
  langue: Language;
  active: boolean;
}

/** The refusals: a message id per field; for the recipients, the indexes of the refused lines. */
type Errors = Partial<Record<'libelle' | 'time' | 'jours', string>> & { destinataires?: number[] };

const pad = (n: number) => String(n).padStart(2, '0');

/** The form of a new recurrence (monthly, the 1st at 06:00, the previous month) or of `r`. */
function draftOf(r: FecRecurrence | null, language: Language): Draft {
  if (!r) {
    return {
      libelle: '',
      type: 'MONTHLY',
      jours: [1],
      day: '1',
      time: '06:00',
      periode: 'PREVIOUS_MONTH',
      destinataires: [],
      langue: language,
      active: true,
    };
  }
  return {
    id: r.id,
    libelle: r.libelle,
    type: r.type,
    jours: r.jours.length ? r.jours : [1],
    day: r.dernierJour ? 'last' : String(r.jourDuMois ?? 1),
    time: `${pad(r.heure)}:${pad(r.minute)}`,
    periode: r.periode,
    destinataires: [...r.destinataires],
    langue: r.langue,
    active: r.active,
  };
}

/** The addresses of the lines typed, trimmed, blank lines left out. */
function addressesOf(lines: readonly string[]): string[] {
  return lines.map((a) => a.trim()).filter((a) => a !== '');
}

/** The refusals of `d`, as the server would refuse it. */
function checkDraft(d: Draft): Errors {
  const errors: Errors = {};
  if (d.libelle.trim() === '' || d.libelle.trim().length > 120)
    errors.libelle = 'fecRecurrences.error.libelle';
  if (!TIME.test(d.time)) errors.time = 'fecRecurrences.error.time';
  if (d.type === 'WEEKLY' && d.jours.length === 0) errors.jours = 'fecRecurrences.error.weekDays';
  const wrong = d.destinataires.flatMap((a, i) => (a.trim() === '' || EMAIL.test(a.trim()) ? [] : [i]));
  if (wrong.length > 0) errors.destinataires = wrong;
  return errors;
}

/** The fields of the recurrence form, each with its refusal. */
function RecurrenceFields({
  d,
  set,
  errors,
  error,
}: {
  d: Draft;
  set: <K extends keyof Draft>(key: K, value: Draft[K]) => void;
  errors: Errors;
  error: (key: Exclude<keyof Errors, 'destinataires'>) => string | undefined;
}) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  return (
    <>
      <TextField
        label={t('fecRecurrences.field.libelle')}
        value={d.libelle}
        onChange={(v) => set('libelle', v)}
        isRequired
        isInvalid={!!errors.libelle}
        errorMessage={error('libelle')}
      />
      <Select
        label={t('fecRecurrences.field.type')}
        options={RULE_TYPES.map((id) => ({ id, label: t(`subscriptions.ruleType.${id}`) }))}
        value={d.type}
        onChange={(v) => set('type', v as RuleType)}
      />
      {d.type === 'WEEKLY' ? (
        <fieldset className="ui-fieldset">
          <legend>{t('fecRecurrences.field.jours')}</legend>
          {[1, 2, 3, 4, 5, 6, 7].map((day) => (
            <Checkbox
              key={day}
              isSelected={d.jours.includes(day)}
              onChange={(on) => set('jours', on ? [...d.jours, day] : d.jours.filter((j) => j !== day))}
            >
              {t(`subscriptions.day.${day}`)}
            </Checkbox>
          ))}
          {errors.jours ? <p className="ui-field__error">{error('jours')}</p> : null}
        </fieldset>
      ) : null}
      {d.type === 'MONTHLY' ? (
        <Select
          label={t('fecRecurrences.field.jourDuMois')}
          options={[
            ...Array.from({ length: 28 }, (_, i) => ({ id: String(i + 1), label: String(i + 1) })),
            { id: 'last', label: t('fecRecurrences.field.dernierJour') },
          ]}
          value={d.day}
          onChange={(v) => set('day', String(v))}
        />
      ) : null}
      <TextField
        label={t('fecRecurrences.field.time')}
        value={d.time}
        onChange={(v) => set('time', v)}
        isInvalid={!!errors.time}
        errorMessage={error('time')}
      />
      <Select
        label={t('fecRecurrences.field.periode')}
        options={FEC_PERIODS.map((id) => ({ id, label: t(`fecRecurrences.periode.${id}`) }))}
        value={d.periode}
        onChange={(v) => set('periode', v as FecPeriod)}
      />
      <RecipientLines
        lines={d.destinataires}
        onChange={(v) => set('destinataires', v)}
        wrong={errors.destinataires}
      />
      <Select
        label={t('fecRecurrences.field.langue')}
        options={LANGUAGES.map((id) => ({ id, label: t(`app.language.${id}`) }))}
        value={d.langue}
        onChange={(v) => set('langue', v as Language)}
      />
      <Checkbox isSelected={d.active} onChange={(on) => set('active', on)}>
        {t('fecRecurrences.active')}
      </Checkbox>
    </>
  );
}

/**
 * The recipients, one address a line: each line its field (refused at the line, what was typed
 * kept), a button to remove it, and one to add a line (at most {@link MAX_FEC_RECIPIENTS}).
 * `wrong`: the indexes of the refused lines.
 */
function RecipientLines({
  lines,
  onChange,
  wrong,
}: {
  lines: readonly string[];
  onChange: (lines: string[]) => void;
  wrong: readonly number[] | undefined;
}) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  return (
    <fieldset className="ui-fieldset fec-recipients">
      <legend>{t('fecRecurrences.field.destinataires')}</legend>
      {lines.length === 0 ? <p className="ui-muted">{t('fecRecurrences.recipient.none')}</p> : null}
      {lines.map((line, i) => (
        // Lines have no identity but their place: removing one re-renders those after it.
        // biome-ignore lint/suspicious/noArrayIndexKey: the index is the line's identity here.
        <div key={i} className="fec-recipients__line">
          <TextField
            label={t('fecRecurrences.recipient.label', { n: i + 1 })}
            type="email"
            autoComplete="email"
            value={line}
            onChange={(v) => onChange(lines.map((old, j) => (j === i ? v : old)))}
            isInvalid={wrong?.includes(i) ?? false}
            errorMessage={
              wrong?.includes(i) ? t('fecRecurrences.error.email', { email: line.trim() }) : undefined
            }
          />
          <Button onPress={() => onChange(lines.filter((_, j) => j !== i))}>
            {t('fecRecurrences.recipient.remove', { n: i + 1 })}
          </Button>
        </div>
      ))}
      <div className="ui-buttons">
        <Button onPress={() => onChange([...lines, ''])} isDisabled={lines.length >= MAX_FEC_RECIPIENTS}>
          {t('fecRecurrences.recipient.add')}
        </Button>
      </div>
    </fieldset>
  );
}

/** The form creating or editing one recurrence of `societe`. */
function RecurrenceForm(props: {
  userId: number;
  societe: number;
  initial: Draft;
  onDone: (message: string | null) => void;
}) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const queryClient = useQueryClient();
  const [d, setD] = useState<Draft>(props.initial);
  const [errors, setErrors] = useState<Errors>({});
  const [attempt, setAttempt] = useState(0);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const keys = useRef(new RequestKeys());
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setD((old) => ({ ...old, [key]: value }));

  async function submit() {
    if (busy) return;
    setRefusal(null);
    const found = checkDraft(d);
    setErrors(found);
    setAttempt((n) => n + 1);
    if (Object.keys(found).length > 0) return;
    const [heure, minute] = d.time.split(':').map(Number) as [number, number];
    const input = {
      ...(d.id === undefined ? {} : { id: d.id }),
      libelle: d.libelle.trim(),
      type: d.type,
      jours: d.type === 'WEEKLY' ? d.jours : [],
      jourDuMois: d.day === 'last' ? null : Number(d.day),
      dernierJour: d.day === 'last',
      heure,
      minute,
      periode: d.periode,
      destinataires: addressesOf(d.destinataires),
      langue: d.langue,
      active: d.active,
    };
    setBusy(true);
    try {
      await saveFecRecurrence(props.userId, props.societe, input, keys.current.keyFor(JSON.stringify(input)));
      keys.current.settle();
      await queryClient.invalidateQueries({
        queryKey: fecRecurrenceQueries.recurrences(props.userId, props.societe).queryKey,
      });
      props.onDone(t('fecRecurrences.saved'));
    } catch (e) {
      const outcome = keyedFailure(e, { offline: 'error.Network Error', unexpected: 'app.unexpectedError' });
      if (outcome.settle) keys.current.settle();
      setRefusal(
        e instanceof ApiFailure && intl.messages[`error.${e.code}`]
          ? t(`error.${e.code}`)
          : t(outcome.messageId),
      );
    } finally {
      setBusy(false);
    }
  }

  const error = (key: Exclude<keyof Errors, 'destinataires'>) => {
    const id = errors[key];
    return id === undefined ? undefined : t(id);
  };
  return (
    <Card labelledBy="fec-recurrence-form-heading">
      <CardTitle id="fec-recurrence-form-heading">
        {t(d.id === undefined ? 'fecRecurrences.form.new' : 'fecRecurrences.form.edit')}
      </CardTitle>
      <ValidatedForm
        className="ui-form"
        onSubmit={() => void submit()}
        refusal={Object.keys(errors).length > 0 ? attempt : null}
        aria-labelledby="fec-recurrence-form-heading"
        data-testid="fec-recurrence-form"
      >
        <RecurrenceFields d={d} set={set} errors={errors} error={error} />
        <FormFooter
          refusal={refusal}
          submitLabel={t('fecRecurrences.save')}
          cancelLabel={t('fecRecurrences.cancel')}
          busy={busy}
          onCancel={() => props.onDone(null)}
        />
      </ValidatedForm>
    </Card>
  );
}

/** A run as one line: its status, tries and planned instant, and its error. */
export function runText(
  t: (id: string, values?: Record<string, string | number>) => string,
  run: FecRecurrence['dernierEnvoi'],
): string {
  if (!run) return t('fecRecurrences.never');
  const at = displayInstant(run.planifie);
  const line = t('fec.files.run', {
    statut: t(`fecRecurrences.runStatus.${run.statut}`),
    tentatives: run.tentatives,
    mails: run.mails,
    planifie: `${at.date} ${at.time}`,
  });
  return run.erreur ? `${line} — ${run.erreur}` : line;
}

/** The recurrences of the company, one row each with its actions. */
function RecurrenceTable(props: {
  recurrences: FecRecurrence[];
  onEdit: (r: FecRecurrence) => void;
  onRun: (r: FecRecurrence) => void;
  onRemove: (r: FecRecurrence) => void;
}) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const rule = (r: FecRecurrence) => {
    const time = `${pad(r.heure)}:${pad(r.minute)}`;
    const when =
      r.type === 'WEEKLY'
        ? r.jours.map((d) => t(`subscriptions.day.${d}`)).join(', ')
        : r.type === 'MONTHLY'
          ? r.dernierJour
            ? t('fecRecurrences.field.dernierJour')
            : t('subscriptions.rule.monthDay', { day: r.jourDuMois ?? 1 })
          : t(`subscriptions.ruleType.${r.type}`);
    return t('subscriptions.rule.at', { when, time });
  };

  return (
    <Table
      className="fec-recurrences__table"
      label={t('fecRecurrences.list.heading')}
      stackOnNarrow
      columns={[
        { key: 'libelle', label: t('fecRecurrences.col.libelle'), isRowHeader: true },
        { key: 'rule', label: t('fecRecurrences.col.rule') },
        { key: 'period', label: t('fecRecurrences.col.period') },
        { key: 'recipients', label: t('fecRecurrences.col.recipients') },
        { key: 'lastRun', label: t('fecRecurrences.col.lastRun') },
        { key: 'actions', label: t('fecRecurrences.col.actions') },
      ]}
      rows={props.recurrences.map((r) => ({
        id: String(r.id),
        cells: {
          libelle: r.active ? r.libelle : `${r.libelle} (${t('fecRecurrences.inactive')})`,
          rule: rule(r),
          period: t(`fecRecurrences.periode.${r.periode}`),
          recipients: r.destinataires.join(', '),
          lastRun: runText(t, r.dernierEnvoi),
          actions: (
            <div className="ui-buttons">
              <Button
                onPress={() => props.onEdit(r)}
                aria-label={t('fecRecurrences.edit', { libelle: r.libelle })}
              >
                {t('fecRecurrences.action.edit')}
              </Button>
              <Button
                isDisabled={!r.active}
                onPress={() => props.onRun(r)}
                aria-label={t('fecRecurrences.run', { libelle: r.libelle })}
              >
                {t('fecRecurrences.action.run')}
              </Button>
              <Button
                onPress={() => props.onRemove(r)}
                aria-label={t('fecRecurrences.delete', { libelle: r.libelle })}
              >
                {t('fecRecurrences.action.delete')}
              </Button>
            </div>
          ),
        },
      }))}
      empty={t('fecRecurrences.empty')}
    />
  );
}

/** The screen of the module comment. */
export function FecRecurrencesPage() {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const { user } = useSnapshot(session);
  const userId = user?.id ?? 0;
  const queryClient = useQueryClient();
  const companies = useQuery({ ...fecQueries.companies(userId), enabled: !!user });
  const [societe, setSociete] = useState<number | null>(null);
  const chosen = societe ?? companies.data?.[0]?.id ?? null;
  const recurrences = useQuery({
    ...fecRecurrenceQueries.recurrences(userId, chosen ?? 0),
    enabled: chosen !== null,
    refetchInterval: (query) =>
      query.state.data?.recurrences.some((r) => ['QUEUED', 'RUNNING'].includes(r.dernierEnvoi?.statut ?? ''))
        ? 1000
        : false,
  });
  const [editing, setEditing] = useState<Draft | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [removing, setRemoving] = useState<FecRecurrence | null>(null);
  const keys = useRef(new RequestKeys());

  async function act(action: 'deleteRecurrence' | 'runRecurrenceNow', r: FecRecurrence) {
    if (chosen === null) return;
    await actOnFecRecurrence(action, userId, chosen, r.id, keys.current.keyFor(`${action}:${r.id}`));
    keys.current.settle();
    await queryClient.invalidateQueries({ queryKey: ['fec', userId] });
    setStatus(t(action === 'runRecurrenceNow' ? 'fecRecurrences.runQueued' : 'fecRecurrences.deleted'));
  }

  return (
    <div className="ui-page">
      <h1>{t('fecRecurrences.title')}</h1>
      <p className="ui-muted">{t('fecRecurrences.intro')}</p>
      <p>
        <Link to="/fec">{t('fecRecurrences.back')}</Link>
      </p>
      <Card labelledBy="fec-recurrences-heading">
        <CardTitle id="fec-recurrences-heading">{t('fecRecurrences.list.heading')}</CardTitle>
        {companies.isPending ? (
          <p className="ui-muted">{t('fec.loading')}</p>
        ) : (
          <Select
            label={t('fec.company')}
            options={(companies.data ?? []).map((c) => ({
              id: c.id,
              label: c.siret ? `${c.raisonSociale} (${c.siret.slice(0, 9)})` : c.raisonSociale,
            }))}
            value={chosen}
            onChange={(key) => {
              setSociete(Number(key));
              setEditing(null);
              setStatus(null);
            }}
          />
        )}
        <p role="status" className="ui-muted">
          {status}
        </p>
        {recurrences.isPending && chosen !== null ? (
          <p className="ui-muted">{t('fecRecurrences.loading')}</p>
        ) : (
          <RecurrenceTable
            recurrences={recurrences.data?.recurrences ?? []}
            onEdit={(r) => setEditing(draftOf(r, i18nState.language))}
            onRun={(r) => void act('runRecurrenceNow', r).catch(notifyFailure)}
            onRemove={setRemoving}
          />
        )}
        <div className="ui-buttons">
          <Button
            variant="primary"
            isDisabled={chosen === null}
            onPress={() => setEditing(draftOf(null, i18nState.language))}
          >
            {t('fecRecurrences.add')}
          </Button>
        </div>
      </Card>
      {editing && chosen !== null ? (
        <RecurrenceForm
          key={`${chosen}:${editing.id ?? 'new'}`}
          userId={userId}
          societe={chosen}
          initial={editing}
          onDone={(message) => {
            setEditing(null);
            setStatus(message);
          }}
        />
      ) : null}
      <RemovalDialog
        target={removing}
        title={t('fecRecurrences.remove.title')}
        body={(r) => t('fecRecurrences.remove.body', { libelle: r.libelle })}
        confirmLabel={t('fecRecurrences.remove.confirm')}
        cancelLabel={t('fecRecurrences.cancel')}
        remove={(r) => act('deleteRecurrence', r)}
        refusalText={(e) => (e instanceof ApiFailure ? t(`error.${e.code}`) : t('app.unexpectedError'))}
        onClose={() => setRemoving(null)}
      />
    </div>
  );
}
