/**
 * The subscription form (issue #28): a name, the period (SPEC.md §9 code, optionally a year
 * earlier), formats, when (an existing rule or a new one: every day, weekdays, chosen days, a day
 * of the month or the last), to whom (oneself, existing recipients, new addresses), "only when
 * there is data", active. The report itself comes from the caller (the reports page's current
 * report, or the subscription being edited). When editing one that is not a favourite, its
 * report class and sites can be changed too (no site ticked = every site of the owner), and on
 * /config/recurrences (`admin`) its owner. Saving creates the new rule and recipients first,
 * then the subscription, and tells SPEC.md §8's success; on a refusal the dialog stays open with
 * what was typed.
 */
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { useState } from 'react';
import { useIntl } from 'react-intl';
import { useSnapshot } from 'valtio';
import { UtilisateurSchema } from '../../../../contract/administration.ts';
import type { PeriodCode } from '../../../../contract/periods.ts';
import {
  RULE_TYPES,
  type RuleType,
  SUBSCRIPTION_FORMATS,
  type Subscription,
  type SubscriptionFormat,
  type SubscriptionReport,
} from '../../../../contract/subscriptions.ts';
import { getJson } from '../../../lib/http.ts';
import { i18nState, useLanguage } from '../../../lib/i18n.tsx';
import { notify, notifyFailure } from '../../../lib/notifications.ts';
import { reportClassQueries } from '../../../lib/report-class-queries.ts';
import { session } from '../../../lib/session.ts';
import { useReferenceData } from '../../../selection/use-reference-data.ts';
import { Checkbox } from '../../../ui/checkbox.tsx';
import { OnlineDialogForm } from '../../../ui/online-dialog-form.tsx';
import { Select } from '../../../ui/select.tsx';
import { TextField } from '../../../ui/text-field.tsx';
import {
  saveRecipient,
  saveRule,
  saveSubscription,
  subscriptionQueries,
  useRecurrenceMutation,
} from '../subscription-queries.ts';

/** The period codes a subscription offers, most used first. */
export const SUBSCRIPTION_PERIODS: readonly PeriodCode[] = ['D-1', 'W-1', 'M-1', 'M', 'W', 'D'];

/** What the dialog starts from: a new subscription of `rapport`, or `subscription` to change. */
export type SubscriptionDraft =
  | { kind: 'new'; libelle: string; rapport: Partial<SubscriptionReport>; formats: SubscriptionFormat[] }
  | { kind: 'edit'; subscription: Subscription };

interface FormState {
  libelle: string;
  periode: PeriodCode;
  anneePrecedente: boolean;
  formats: SubscriptionFormat[];
  rule: 'new' | number;
  ruleType: RuleType;
  time: string;
  jours: number[];
  jourDuMois: string;
  me: boolean;
  recipients: number[];
  emails: string;
  siDonnees: boolean;
  active: boolean;
  /** The report's class (rapportClassName). */
  className: string;
  /** Sites (restaurantId); empty = every site of the owner. */
  sites: number[];
  /** The owner (edit only; null: gone). */
  owner: number | null;
}

function initialState(draft: SubscriptionDraft): FormState {
  const s = draft.kind === 'edit' ? draft.subscription : null;
  return {
    libelle: s?.libelle ?? (draft.kind === 'new' ? draft.libelle : ''),
    periode: s?.rapport.periode ?? (draft.kind === 'new' ? (draft.rapport.periode ?? 'D-1') : 'D-1'),
    anneePrecedente: s?.rapport.anneePrecedente ?? false,
    formats: s?.formats ?? (draft.kind === 'new' ? draft.formats : ['PDF']),
    rule: s?.regleId ?? 'new',
    ruleType: 'DAILY',
    time: '06:00',
    jours: [1],
    jourDuMois: '1',
    me: s === null,
    recipients: s?.destinataires ?? [],
    emails: '',
    siDonnees: s?.siDonnees ?? true,
    active: s?.active ?? true,
    className: s?.rapport.rapportClassName ?? '',
    sites: [...(s?.rapport.lSites ?? [])],
    owner: s?.proprietaireId ?? null,
  };
}

/** The form's problem, as a message id, or null when it can be sent. */
function problemOf(f: FormState): string | null {
  if (f.libelle.trim() === '') return 'subscriptions.form.nameRequired';
  if (f.formats.length === 0) return 'subscriptions.form.formatRequired';
  if (f.rule === 'new' && !/^([01]\d|2[0-3]):[0-5]\d$/.test(f.time)) return 'subscriptions.form.badTime';
  const emails = splitEmails(f.emails);
  if (emails.some((e) => !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(e))) return 'subscriptions.form.badEmail';
  if (!f.me && f.recipients.length === 0 && emails.length === 0)
    return 'subscriptions.form.recipientRequired';
  return null;
}

const splitEmails = (text: string) =>
  text
    .split(/[,;\s]+/)
    .map((e) => e.trim())
    .filter((e) => e !== '');

/** Creates what the form asks for and saves the subscription. */
async function submit(draft: SubscriptionDraft, f: FormState, userId: number, knownSelf: number | null) {
  const language = i18nState.language;
  const [heure, minute] = f.time.split(':').map(Number) as [number, number];
  const regleId =
    f.rule !== 'new'
      ? f.rule
      : (
          await saveRule({
            libelle: `${f.libelle.trim()} (${f.time})`.slice(0, 120),
            type: f.ruleType,
            jours: f.jours,
            jourDuMois: f.jourDuMois === 'last' ? null : Number(f.jourDuMois),
            dernierJour: f.jourDuMois === 'last',
            heure,
            minute,
          })
        ).id;
  const destinataires = [...f.recipients];
  if (f.me)
    destinataires.push(knownSelf ?? (await saveRecipient({ utilisateurId: userId, langue: language })).id);
  for (const email of splitEmails(f.emails))
    destinataires.push((await saveRecipient({ email, langue: language })).id);
  const edited =
    draft.kind === 'edit' && draft.subscription.rapport.favoriId === null
      ? { rapportClassName: f.className, lSites: f.sites }
      : {};
  const rapport = draft.kind === 'edit' ? draft.subscription.rapport : draft.rapport;
  const owner = draft.kind === 'edit' && f.owner !== null ? { proprietaireId: f.owner } : {};
  return saveSubscription({
    ...(draft.kind === 'edit' ? { id: draft.subscription.id } : {}),
    ...owner,
    libelle: f.libelle.trim(),
    rapport: { ...rapport, ...edited, periode: f.periode, anneePrecedente: f.anneePrecedente },
    formats: f.formats,
    regleId,
    destinataires: [...new Set(destinataires)],
    siDonnees: f.siDonnees,
    active: f.active,
  });
}

/** The dialog; closed when `draft` is null. `admin` (/config/recurrences) offers the owner. */
export function SubscriptionDialog({
  draft,
  onClose,
  admin = false,
}: {
  draft: SubscriptionDraft | null;
  onClose: () => void;
  admin?: boolean;
}) {
  return draft ? <OpenSubscriptionDialog draft={draft} onClose={onClose} admin={admin} /> : null;
}

function OpenSubscriptionDialog({
  draft,
  onClose,
  admin,
}: {
  draft: SubscriptionDraft;
  onClose: () => void;
  admin: boolean;
}) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string>) => intl.formatMessage({ id }, values);
  const { user } = useSnapshot(session);
  const userId = user?.id ?? 0;
  const rules = useQuery({ ...subscriptionQueries.rules(userId), enabled: userId > 0 });
  const recipients = useQuery({ ...subscriptionQueries.recipients(userId), enabled: userId > 0 });
  const [f, setForm] = useState(() => initialState(draft));
  const [problem, setProblem] = useState<string | null>(null);
  const set = (patch: Partial<FormState>) => setForm((old) => ({ ...old, ...patch }));
  const self = recipients.data?.find((r) => r.utilisateurId === userId) ?? null;
  const save = useRecurrenceMutation(() => submit(draft, f, userId, self?.id ?? null));
  const toggle = <T,>(list: readonly T[], value: T, on: boolean) =>
    on ? [...list, value] : list.filter((v) => v !== value);

  function onSubmit() {
    const found = problemOf(f);
    setProblem(found);
    if (found) return;
    save.mutate(undefined, {
      onSuccess: () => {
        notify.success(draft.kind === 'edit' ? 'subscriptionEdited' : 'subscriptionAdded');
        onClose();
      },
      onError: notifyFailure,
    });
  }

  return (
    <OnlineDialogForm
      title={t(draft.kind === 'edit' ? 'subscriptions.form.editTitle' : 'subscriptions.form.newTitle')}
      isOpen
      onClose={onClose}
      onSubmit={onSubmit}
      testId="subscription-form"
      offlineNoticeId="subscriptions.offline"
      offlineDisablesSubmit
      problemId={problem}
      refusal={problem}
      submitLabelId="subscriptions.form.save"
      busy={save.isPending}
    >
      <TextField
        label={t('subscriptions.form.name')}
        value={f.libelle}
        onChange={(libelle) => set({ libelle })}
        isRequired
      />
      {draft.kind === 'edit' && draft.subscription.rapport.favoriId === null ? (
        <ReportFields f={f} set={set} toggle={toggle} />
      ) : null}
      {draft.kind === 'edit' && admin ? <OwnerField f={f} set={set} /> : null}
      <Select
        label={t('subscriptions.form.period')}
        options={SUBSCRIPTION_PERIODS.map((code) => ({ id: code, label: t(`period.${code}`) }))}
        value={f.periode}
        onChange={(periode) => set({ periode: periode as PeriodCode })}
      />
      <Checkbox isSelected={f.anneePrecedente} onChange={(anneePrecedente) => set({ anneePrecedente })}>
        {t('subscriptions.form.yearEarlier')}
      </Checkbox>
      <fieldset className="subs-fieldset">
        <legend>{t('subscriptions.form.formats')}</legend>
        {SUBSCRIPTION_FORMATS.map((format) => (
          <Checkbox
            key={format}
            isSelected={f.formats.includes(format)}
            onChange={(on) => set({ formats: toggle(f.formats, format, on) })}
          >
            {format}
          </Checkbox>
        ))}
      </fieldset>
      <Select
        label={t('subscriptions.form.rule')}
        options={[
          { id: 'new', label: t('subscriptions.form.newRule') },
          ...(rules.data ?? []).map((r) => ({ id: r.id, label: r.libelle })),
        ]}
        value={f.rule}
        onChange={(rule) => set({ rule: rule === 'new' ? 'new' : Number(rule) })}
      />
      {f.rule === 'new' ? <NewRuleFields f={f} set={set} toggle={toggle} /> : null}
      <fieldset className="subs-fieldset">
        <legend>{t('subscriptions.form.recipients')}</legend>
        {self ? null : (
          <Checkbox isSelected={f.me} onChange={(me) => set({ me })}>
            {t('subscriptions.form.me')}
          </Checkbox>
        )}
        {(recipients.data ?? []).map((r) => (
          <Checkbox
            key={r.id}
            isSelected={f.recipients.includes(r.id) || (f.me && r.id === self?.id)}
            onChange={(on) =>
              set(
                r.id === self?.id
                  ? { me: on, recipients: toggle(f.recipients, r.id, false) }
                  : { recipients: toggle(f.recipients, r.id, on) },
              )
            }
          >
            {r.id === self?.id ? t('subscriptions.form.me') : r.libelle}
          </Checkbox>
        ))}
        <TextField
          label={t('subscriptions.form.emails')}
          description={t('subscriptions.form.emailsHelp')}
          value={f.emails}
          onChange={(emails) => set({ emails })}
        />
      </fieldset>
      <Checkbox isSelected={f.siDonnees} onChange={(siDonnees) => set({ siDonnees })}>
        {t('subscriptions.form.onlyWithData')}
      </Checkbox>
      <Checkbox isSelected={f.active} onChange={(active) => set({ active })}>
        {t('subscriptions.form.active')}
      </Checkbox>
    </OnlineDialogForm>
  );
}

/** The report class and the sites of a subscription being edited. */
function ReportFields(props: {
  f: FormState;
  set: (patch: Partial<FormState>) => void;
  toggle: <T>(list: readonly T[], value: T, on: boolean) => T[];
}) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const { f, set, toggle } = props;
  const { user } = useSnapshot(session);
  const [language] = useLanguage();
  const editions = useQuery({ ...reportClassQueries.metrics(user?.id ?? 0, language), enabled: !!user });
  const { sites } = useReferenceData();
  const classes = editions.data ?? [];
  return (
    <>
      <Select
        label={t('subscriptions.form.report')}
        options={[
          ...(classes.some((e) => e.className === f.className)
            ? []
            : [{ id: f.className, label: f.className }]),
          ...classes.map((e) => ({ id: e.className, label: e.localisedTitle })),
        ]}
        value={f.className}
        onChange={(className) => set({ className: String(className) })}
      />
      <fieldset className="subs-fieldset subs-sites">
        <legend>{t('subscriptions.form.sites')}</legend>
        <p className="subs-help">{t('subscriptions.form.sitesHelp')}</p>
        {sites.map((site) => (
          <Checkbox
            key={site.restaurantId}
            isSelected={f.sites.includes(site.restaurantId)}
            onChange={(on) => set({ sites: toggle(f.sites, site.restaurantId, on) })}
          >
            {site.libelle}
          </Checkbox>
        ))}
      </fieldset>
    </>
  );
}

const UsersSchema = z.array(UtilisateurSchema);

/** The owner of a subscription (administrators): every user by login (GET bo/infra/getUtilisateurs). */
function OwnerField({ f, set }: { f: FormState; set: (patch: Partial<FormState>) => void }) {
  const intl = useIntl();
  const users = useQuery({
    queryKey: ['subscriptions', 'owners'],
    queryFn: () => getJson('bo/infra/getUtilisateurs', UsersSchema),
    staleTime: 60_000,
  });
  const options = (users.data ?? []).map((u) => ({ id: u.id, label: u.login }));
  return (
    <>
      <Select
        label={intl.formatMessage({ id: 'subscriptions.form.owner' })}
        options={f.owner === null ? [{ id: 'none', label: '—' }, ...options] : options}
        value={f.owner ?? 'none'}
        onChange={(owner) => set({ owner: owner === 'none' ? null : Number(owner) })}
      />
      <p className="subs-help">{intl.formatMessage({ id: 'subscriptions.form.ownerHelp' })}</p>
    </>
  );
}

/** The fields of a new rule: its kind, days and time. */
function NewRuleFields(props: {
  f: FormState;
  set: (patch: Partial<FormState>) => void;
  toggle: <T>(list: readonly T[], value: T, on: boolean) => T[];
}) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const { f, set, toggle } = props;
  return (
    <fieldset className="subs-fieldset">
      <legend>{t('subscriptions.form.when')}</legend>
      <Select
        label={t('subscriptions.form.ruleType')}
        options={RULE_TYPES.map((type) => ({ id: type, label: t(`subscriptions.ruleType.${type}`) }))}
        value={f.ruleType}
        onChange={(ruleType) => set({ ruleType: ruleType as RuleType })}
      />
      {f.ruleType === 'WEEKLY' ? (
        <div className="subs-days">
          {[1, 2, 3, 4, 5, 6, 7].map((day) => (
            <Checkbox
              key={day}
              isSelected={f.jours.includes(day)}
              onChange={(on) => set({ jours: toggle(f.jours, day, on) })}
            >
              {t(`subscriptions.day.${day}`)}
            </Checkbox>
          ))}
        </div>
      ) : null}
      {f.ruleType === 'MONTHLY' ? (
        <Select
          label={t('subscriptions.form.monthDay')}
          options={[
            ...Array.from({ length: 28 }, (_, i) => ({ id: String(i + 1), label: String(i + 1) })),
            { id: 'last', label: t('subscriptions.form.lastDay') },
          ]}
          value={f.jourDuMois}
          onChange={(jourDuMois) => set({ jourDuMois: String(jourDuMois) })}
        />
      ) : null}
      <TextField
        label={t('subscriptions.form.time')}
        description="HH:MM"
        value={f.time}
        onChange={(time) => set({ time })}
      />
    </fieldset>
  );
}
