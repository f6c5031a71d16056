/**
 * The "Alerts" section (issue #28 "Alerts"), shown below the report e-mails on /config/recurrences
 * (an administrator: every alert, with its owner) and /abonnements (one's own): each alert with
 * its kind, sites and rule, "check now" and delete, and a form to add one from a kind, sites of
 * one's scope, a rule and recipients (made in the sections above). Every change tells SPEC.md
 * §8's success; deleting asks first.
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useIntl } from 'react-intl';
import { useSnapshot } from 'valtio';
import { ALERT_KINDS, type AlertKind } from '../../../contract/alerts.ts';
import { notify, notifyFailure } from '../../lib/notifications.ts';
import { session } from '../../lib/session.ts';
import { referenceQueries } from '../../selection/reference-queries.ts';
import { Button } from '../../ui/button.tsx';
import { Card, CardTitle } from '../../ui/card.tsx';
import { Checkbox } from '../../ui/checkbox.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { OnlineDialogForm } from '../../ui/online-dialog-form.tsx';
import { Select } from '../../ui/select.tsx';
import { Table } from '../../ui/table.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { alertQueries, checkAlertNow, removeAlert, saveAlert, useAlertMutation } from './alert-queries.ts';

type T = (id: string, values?: Record<string, string | number>) => string;

/** The section; `admin` adds the owner column (/config/recurrences). */
export function AlertsSection({ admin }: { admin: boolean }) {
  const intl = useIntl();
  const t: T = (id, values) => intl.formatMessage({ id }, values);
  const { user } = useSnapshot(session);
  const userId = user?.id ?? 0;
  const list = useQuery({ ...alertQueries.list(userId), enabled: userId > 0 });
  const rules = useQuery({ ...alertQueries.rules(userId), enabled: userId > 0 });
  const sites = useQuery({ ...referenceQueries.sites(), enabled: userId > 0 });
  const [adding, setAdding] = useState(false);
  const [removal, setRemoval] = useState<number | null>(null);
  const removeMutation = useAlertMutation(removeAlert);
  const checkMutation = useAlertMutation(checkAlertNow);
  const ruleName = new Map((rules.data ?? []).map((r) => [r.id, r.libelle]));
  const siteName = new Map((sites.data ?? []).map((s) => [s.restaurantId, s.libelle]));

  return (
    <Card className="subs-card" labelledBy="alerts-list">
      <CardTitle id="alerts-list">{t('alerts.title')}</CardTitle>
      <p className="subs-muted">{t('alerts.intro')}</p>
      <Table
        label={t('alerts.title')}
        columns={[
          { key: 'name', label: t('alerts.col.name'), isRowHeader: true },
          ...(admin ? [{ key: 'owner', label: t('alerts.col.owner') }] : []),
          { key: 'kind', label: t('alerts.col.kind') },
          { key: 'sites', label: t('alerts.col.sites') },
          { key: 'when', label: t('alerts.col.rule') },
          { key: 'actions', label: t('alerts.col.actions') },
        ]}
        rows={(list.data ?? []).map((a) => ({
          id: String(a.id),
          cells: {
            name: a.active ? a.libelle : `${a.libelle} (${t('alerts.inactive')})`,
            owner: a.proprietaire ?? t('alerts.noOwner'),
            kind: t(`alerts.kind.${a.type}`),
            sites: a.sites.map((s) => siteName.get(s) ?? String(s)).join(', '),
            when: ruleName.get(a.regleId) ?? '',
            actions: (
              <span className="subs-actions">
                <Button
                  isDisabled={checkMutation.isPending}
                  aria-label={t('alerts.checkNow.label', { name: a.libelle })}
                  onPress={() =>
                    checkMutation.mutate(a.id, {
                      onSuccess: ({ mails }) =>
                        mails > 0 ? notify.success('alertChecked') : notify.success('alertNothing'),
                      onError: notifyFailure,
                    })
                  }
                >
                  {t('alerts.checkNow')}
                </Button>
                <Button onPress={() => setRemoval(a.id)}>{t('alerts.delete')}</Button>
              </span>
            ),
          },
        }))}
        empty={t('alerts.empty')}
      />
      <Button onPress={() => setAdding(true)}>{t('alerts.add')}</Button>
      {adding ? <AlertDialog t={t} onClose={() => setAdding(false)} /> : null}
      <ConfirmDialog
        isOpen={removal !== null}
        title={t('alerts.confirmDelete.title')}
        body={t('alerts.confirmDelete.message')}
        confirmLabel={t('alerts.delete')}
        cancelLabel={t('alerts.cancel')}
        busy={removeMutation.isPending}
        onConfirm={() => {
          if (removal === null) return;
          removeMutation.mutate(removal, {
            onSuccess: () => notify.success('alertDeleted'),
            onError: notifyFailure,
            onSettled: () => setRemoval(null),
          });
        }}
        onCancel={() => setRemoval(null)}
      />
    </Card>
  );
}

/** The form of a new alert. */
function AlertDialog({ t, onClose }: { t: T; onClose: () => void }) {
  const { user } = useSnapshot(session);
  const userId = user?.id ?? 0;
  const rules = useQuery({ ...alertQueries.rules(userId), enabled: userId > 0 });
  const recipients = useQuery({ ...alertQueries.recipients(userId), enabled: userId > 0 });
  const sites = useQuery({ ...referenceQueries.sites(), enabled: userId > 0 });
  const [libelle, setLibelle] = useState('');
  const [type, setType] = useState<AlertKind>('countMissing');
  const [regleId, setRegleId] = useState<number | null>(null);
  const [chosenSites, setSites] = useState<number[]>([]);
  const [chosenRecipients, setRecipients] = useState<number[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const save = useAlertMutation(saveAlert);
  const toggle = (list: number[], id: number, on: boolean) =>
    on ? [...list, id] : list.filter((x) => x !== id);
  const rule = regleId ?? rules.data?.[0]?.id ?? null;

  function onSubmit() {
    if (!libelle.trim() || rule === null || chosenSites.length === 0 || chosenRecipients.length === 0) {
      setProblem('alerts.form.incomplete');
      return;
    }
    save.mutate(
      { libelle, type, sites: chosenSites, regleId: rule, destinataires: chosenRecipients },
      {
        onSuccess: () => {
          notify.success('alertSaved');
          onClose();
        },
        onError: notifyFailure,
      },
    );
  }

  return (
    <OnlineDialogForm
      title={t('alerts.form.title')}
      isOpen
      onClose={onClose}
      onSubmit={onSubmit}
      testId="alert-form"
      offlineNoticeId="alerts.offline"
      offlineDisablesSubmit
      problemId={problem}
      refusal={problem}
      submitLabelId="alerts.form.save"
      busy={save.isPending}
    >
      <TextField label={t('alerts.form.name')} value={libelle} onChange={setLibelle} isRequired />
      <Select
        label={t('alerts.form.kind')}
        options={ALERT_KINDS.map((k) => ({ id: k, label: t(`alerts.kind.${k}`) }))}
        value={type}
        onChange={(k) => setType(k as AlertKind)}
      />
      <Select
        label={t('alerts.form.rule')}
        options={(rules.data ?? []).map((r) => ({ id: r.id, label: r.libelle }))}
        value={rule ?? ''}
        onChange={(id) => setRegleId(Number(id))}
        placeholder={t('alerts.form.noRule')}
      />
      <fieldset className="subs-fieldset">
        <legend>{t('alerts.form.sites')}</legend>
        {(sites.data ?? [])
          .filter((s) => s.libelle !== 'NON REMPLI')
          .map((s) => (
            <Checkbox
              key={s.restaurantId}
              isSelected={chosenSites.includes(s.restaurantId)}
              onChange={(on) => setSites(toggle(chosenSites, s.restaurantId, on))}
            >
              {s.libelle}
            </Checkbox>
          ))}
      </fieldset>
      <fieldset className="subs-fieldset">
        <legend>{t('alerts.form.recipients')}</legend>
        {(recipients.data ?? []).map((r) => (
          <Checkbox
            key={r.id}
            isSelected={chosenRecipients.includes(r.id)}
            onChange={(on) => setRecipients(toggle(chosenRecipients, r.id, on))}
          >
            {r.libelle}
          </Checkbox>
        ))}
      </fieldset>
    </OnlineDialogForm>
  );
}
