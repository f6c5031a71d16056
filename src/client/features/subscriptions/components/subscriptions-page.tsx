/**
 * The report e-mails screens (issue #28): /config/recurrences, where an administrator sees and
 * manages every rule, recipient and subscription, and /abonnements, where a user manages their
 * own (the server decides which rows a caller sees). Each subscription shows its state
 * (active, inactive, suspended because its owner cannot run it) and its last run, with "send
 * now" (which queues a run: the last run then shows queued, running, then its outcome, polled
 * while it is under way), "history" (the runs of the job queue with their tries, mails, files
 * and error), "preview", change and delete; rules and recipients can be added and deleted.
 * Every change tells SPEC.md §8's success; deleting asks first.
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useIntl } from 'react-intl';
import { useSnapshot } from 'valtio';
import { displayInstant } from '../../../../contract/dates.ts';
import type {
  Recipient,
  Rule,
  Subscription,
  SubscriptionPreview,
  SubscriptionRun,
} from '../../../../contract/subscriptions.ts';
import { notify, notifyFailure } from '../../../lib/notifications.ts';
import { session } from '../../../lib/session.ts';
import { Button } from '../../../ui/button.tsx';
import { Card, CardTitle } from '../../../ui/card.tsx';
import { ConfirmDialog } from '../../../ui/confirm-dialog.tsx';
import { Dialog } from '../../../ui/dialog.tsx';
import { Table } from '../../../ui/table.tsx';
import {
  preview,
  type Removal,
  remove,
  sendNow,
  subscriptionQueries,
  useRecurrenceMutation,
} from '../subscription-queries.ts';
import { RecipientDialog, RuleDialog } from './rule-recipient-dialogs.tsx';
import { SubscriptionDialog, type SubscriptionDraft } from './subscription-dialog.tsx';
import './subscriptions.css';

/** An instant as the interface shows every one: DD/MM/YYYY HH:mm (SPEC.md §9, contract/dates.ts). */
function instantText(instant: string): string {
  const { date, time } = displayInstant(new Date(instant));
  return `${date} ${time}`;
}

type T = (id: string, values?: Record<string, string | number>) => string;

/** A rule in words: "Every day at 06:00", "Monday, Thursday at 07:15", "Last day of the month at 23:00". */
export function ruleText(t: T, r: Rule): string {
  const time = `${String(r.heure).padStart(2, '0')}:${String(r.minute).padStart(2, '0')}`;
  const when =
    r.type === 'WEEKLY'
      ? r.jours.map((d) => t(`subscriptions.day.${d}`)).join(', ')
      : r.type === 'MONTHLY'
        ? r.dernierJour
          ? t('subscriptions.form.lastDay')
          : t('subscriptions.rule.monthDay', { day: r.jourDuMois ?? 1 })
        : t(`subscriptions.ruleType.${r.type}`);
  return t('subscriptions.rule.at', { when, time });
}

/** Statuses of a run still under way: the screen polls until it ends. */
const UNDER_WAY: ReadonlySet<SubscriptionRun['statut']> = new Set(['QUEUED', 'RUNNING', 'RETRYING']);
/** Milliseconds between two reads of a run under way. */
const POLL_MS = 1000;

/** The subscriptions of user `userId`'s view, read again every second while a last run is under way. */
function useSubscriptionList(userId: number) {
  return useQuery({
    ...subscriptionQueries.list(userId),
    enabled: userId > 0,
    refetchInterval: (query) =>
      query.state.data?.some((s) => s.dernierEnvoi && UNDER_WAY.has(s.dernierEnvoi.statut)) ? POLL_MS : false,
  });
}

/** The screen; `admin` says it is /config/recurrences (titles and the owner column). */
export function SubscriptionsPage({ admin }: { admin: boolean }) {
  const intl = useIntl();
  const t: T = (id, values) => intl.formatMessage({ id }, values);
  const { user } = useSnapshot(session);
  const userId = user?.id ?? 0;
  const list = useSubscriptionList(userId);
  const rules = useQuery({ ...subscriptionQueries.rules(userId), enabled: userId > 0 });
  const recipients = useQuery({ ...subscriptionQueries.recipients(userId), enabled: userId > 0 });
  const [draft, setDraft] = useState<SubscriptionDraft | null>(null);
  const [adding, setAdding] = useState<'rule' | 'recipient' | null>(null);
  const [removal, setRemoval] = useState<Removal | null>(null);
  const [shown, setShown] = useState<SubscriptionPreview | null>(null);
  const [history, setHistory] = useState<Subscription | null>(null);
  const removeMutation = useRecurrenceMutation(remove);
  const sendMutation = useRecurrenceMutation(sendNow);
  const previewMutation = useRecurrenceMutation(preview);
  const removedSuccess = {
    regles: 'ruleDeleted',
    destinataires: 'recipientDeleted',
    abonnements: 'subscriptionDeleted',
  } as const;

  function confirmRemoval() {
    if (!removal) return;
    removeMutation.mutate(removal, {
      onSuccess: () => notify.success(removedSuccess[removal.kind]),
      onError: notifyFailure,
      onSettled: () => setRemoval(null),
    });
  }

  return (
    <div className="subs-page">
      <h1 className="subs-title">{t(admin ? 'subscriptions.adminTitle' : 'subscriptions.title')}</h1>
      <p className="subs-muted">{t('subscriptions.intro')}</p>
      <Card className="subs-card" labelledBy="subs-list">
        <CardTitle id="subs-list">{t('subscriptions.list.title')}</CardTitle>
        <SubscriptionTable
          t={t}
          admin={admin}
          subscriptions={list.data ?? []}
          rules={rules.data ?? []}
          recipients={recipients.data ?? []}
          busy={sendMutation.isPending || previewMutation.isPending}
          onEdit={(subscription) => setDraft({ kind: 'edit', subscription })}
          onRemove={(abonnementId) => setRemoval({ kind: 'abonnements', abonnementId })}
          onSend={(id) =>
            sendMutation.mutate(id, {
              onSuccess: () => notify.success('subscriptionQueued'),
              onError: notifyFailure,
            })
          }
          onPreview={(id) => previewMutation.mutate(id, { onSuccess: setShown, onError: notifyFailure })}
          onHistory={setHistory}
        />
      </Card>
      <Card className="subs-card" labelledBy="subs-rules">
        <CardTitle id="subs-rules">{t('subscriptions.rules.title')}</CardTitle>
        <Table
          label={t('subscriptions.rules.title')}
          columns={[
            { key: 'name', label: t('subscriptions.col.name'), isRowHeader: true },
            { key: 'when', label: t('subscriptions.col.when') },
            { key: 'actions', label: t('subscriptions.col.actions') },
          ]}
          rows={(rules.data ?? []).map((r) => ({
            id: String(r.id),
            cells: {
              name: r.libelle,
              when: ruleText(t, r),
              actions: (
                <Button onPress={() => setRemoval({ kind: 'regles', regleId: r.id })}>
                  {t('subscriptions.delete')}
                </Button>
              ),
            },
          }))}
          empty={t('subscriptions.rules.empty')}
        />
        <Button onPress={() => setAdding('rule')}>{t('subscriptions.rules.add')}</Button>
      </Card>
      <Card className="subs-card" labelledBy="subs-recipients">
        <CardTitle id="subs-recipients">{t('subscriptions.recipients.title')}</CardTitle>
        <Table
          label={t('subscriptions.recipients.title')}
          columns={[
            { key: 'name', label: t('subscriptions.col.recipient'), isRowHeader: true },
            { key: 'language', label: t('subscriptions.col.language') },
            { key: 'actions', label: t('subscriptions.col.actions') },
          ]}
          rows={(recipients.data ?? []).map((r) => ({
            id: String(r.id),
            cells: {
              name: r.adresse && r.adresse !== r.libelle ? `${r.libelle} <${r.adresse}>` : r.libelle,
              language: r.langue.toUpperCase(),
              actions: (
                <Button onPress={() => setRemoval({ kind: 'destinataires', destinataireId: r.id })}>
                  {t('subscriptions.delete')}
                </Button>
              ),
            },
          }))}
          empty={t('subscriptions.recipients.empty')}
        />
        <Button onPress={() => setAdding('recipient')}>{t('subscriptions.recipients.add')}</Button>
      </Card>
      <SubscriptionDialog draft={draft} onClose={() => setDraft(null)} admin={admin} />
      <RuleDialog isOpen={adding === 'rule'} onClose={() => setAdding(null)} />
      <RecipientDialog isOpen={adding === 'recipient'} onClose={() => setAdding(null)} admin={admin} />
      <ConfirmDialog
        isOpen={removal !== null}
        title={t('subscriptions.confirmDelete.title')}
        body={t('subscriptions.confirmDelete.message')}
        confirmLabel={t('subscriptions.delete')}
        cancelLabel={t('subscriptions.cancel')}
        busy={removeMutation.isPending}
        onConfirm={confirmRemoval}
        onCancel={() => setRemoval(null)}
      />
      <PreviewDialog preview={shown} onClose={() => setShown(null)} t={t} />
      <HistoryDialog userId={userId} subscription={history} onClose={() => setHistory(null)} t={t} />
    </div>
  );
}

/** The subscriptions with their state, last run and actions. */
function SubscriptionTable(props: {
  t: T;
  admin: boolean;
  subscriptions: readonly Subscription[];
  rules: readonly Rule[];
  recipients: readonly Recipient[];
  busy: boolean;
  onEdit: (s: Subscription) => void;
  onRemove: (id: number) => void;
  onSend: (id: number) => void;
  onPreview: (id: number) => void;
  onHistory: (s: Subscription) => void;
}) {
  const { t } = props;
  const rule = new Map(props.rules.map((r) => [r.id, r]));
  const state = (s: Subscription) =>
    t(
      s.suspendu
        ? 'subscriptions.state.suspended'
        : s.active
          ? 'subscriptions.state.active'
          : 'subscriptions.state.inactive',
    );
  const lastRun = (s: Subscription) =>
    s.dernierEnvoi
      ? t('subscriptions.lastRun', {
          when: instantText(s.dernierEnvoi.termine ?? s.dernierEnvoi.planifie),
          status: t(`subscriptions.runStatus.${s.dernierEnvoi.statut}`),
          mails: s.dernierEnvoi.mails,
        })
      : t('subscriptions.never');
  return (
    <Table
      className="subs-table"
      label={t('subscriptions.list.title')}
      columns={[
        { key: 'name', label: t('subscriptions.col.name'), isRowHeader: true },
        ...(props.admin ? [{ key: 'owner', label: t('subscriptions.col.owner') }] : []),
        { key: 'when', label: t('subscriptions.col.when') },
        { key: 'formats', label: t('subscriptions.col.formats') },
        { key: 'state', label: t('subscriptions.col.state') },
        { key: 'last', label: t('subscriptions.col.lastRun') },
        { key: 'actions', label: t('subscriptions.col.actions') },
      ]}
      rows={props.subscriptions.map((s) => {
        const r = rule.get(s.regleId);
        return {
          id: String(s.id),
          cells: {
            name: s.libelle,
            owner: s.proprietaire ?? t('subscriptions.noOwner'),
            when: r ? ruleText(t, r) : '',
            formats: s.formats.join(', '),
            state: state(s),
            last: lastRun(s),
            actions: (
              <span className="subs-actions">
                <Button
                  isDisabled={props.busy}
                  onPress={() => props.onSend(s.id)}
                  aria-label={t('subscriptions.sendNow.label', { name: s.libelle })}
                >
                  {t('subscriptions.sendNow')}
                </Button>
                <Button isDisabled={props.busy} onPress={() => props.onPreview(s.id)}>
                  {t('subscriptions.preview')}
                </Button>
                <Button
                  onPress={() => props.onHistory(s)}
                  aria-label={t('subscriptions.history.label', { name: s.libelle })}
                >
                  {t('subscriptions.history')}
                </Button>
                <Button onPress={() => props.onEdit(s)}>{t('subscriptions.edit')}</Button>
                <Button onPress={() => props.onRemove(s.id)}>{t('subscriptions.delete')}</Button>
              </span>
            ),
          },
        };
      })}
      empty={t('subscriptions.list.empty')}
    />
  );
}

/** The mail a subscription would send now, and its files to download. */
function PreviewDialog({
  preview: p,
  onClose,
  t,
}: {
  preview: SubscriptionPreview | null;
  onClose: () => void;
  t: T;
}) {
  if (!p) return null;
  return (
    <Dialog title={t('subscriptions.preview')} isOpen onOpenChange={(open) => (open ? undefined : onClose())}>
      <p>
        <strong>{p.sujet}</strong>
      </p>
      <pre className="subs-preview-text">{p.texte}</pre>
      <ul>
        {p.fichiers.map((f) => (
          <li key={f.nom}>
            {f.contenu ? (
              <a href={`data:${f.type};base64,${f.contenu}`} download={f.nom}>
                {f.nom}
              </a>
            ) : (
              f.nom
            )}{' '}
            ({Math.ceil(f.octets / 1024)} KB)
          </li>
        ))}
      </ul>
      <Button variant="primary" onPress={onClose}>
        {t('subscriptions.close')}
      </Button>
    </Dialog>
  );
}

/** The runs of a subscription (newest first): planned minute, status, tries, mails, files, error. */
function HistoryDialog({
  userId,
  subscription,
  onClose,
  t,
}: {
  userId: number;
  subscription: Subscription | null;
  onClose: () => void;
  t: T;
}) {
  const runs = useQuery({
    ...subscriptionQueries.runs(userId, subscription?.id ?? 0),
    enabled: subscription !== null,
    refetchInterval: (query) => (query.state.data?.some((r) => UNDER_WAY.has(r.statut)) ? POLL_MS : false),
  });
  if (!subscription) return null;
  return (
    <Dialog
      title={t('subscriptions.history.title', { name: subscription.libelle })}
      isOpen
      onOpenChange={(open) => (open ? undefined : onClose())}
    >
      <Table
        label={t('subscriptions.history.title', { name: subscription.libelle })}
        columns={[
          { key: 'planned', label: t('subscriptions.history.planned'), isRowHeader: true },
          { key: 'status', label: t('subscriptions.col.state') },
          { key: 'tries', label: t('subscriptions.history.tries') },
          { key: 'mails', label: t('subscriptions.history.mails') },
          { key: 'files', label: t('subscriptions.history.files') },
          { key: 'error', label: t('subscriptions.history.error') },
        ]}
        rows={(runs.data ?? []).map((r, i) => ({
          id: `${i}-${r.planifie}`,
          cells: {
            planned: instantText(r.planifie),
            status: t(`subscriptions.runStatus.${r.statut}`),
            tries: r.tentatives,
            mails: r.mails,
            files: r.fichiers.map((f) => `${f.nom} (${Math.ceil(f.octets / 1024)} KB)`).join(', '),
            error: r.erreur ?? '',
          },
        }))}
        empty={t('subscriptions.never')}
      />
      <Button variant="primary" onPress={onClose}>
        {t('subscriptions.close')}
      </Button>
    </Dialog>
  );
}
