/**
 * The small dialogs of the report e-mails screens: a new recurrence rule (kind, days, time) and
 * a new recipient (a plain address, or oneself, with a language). Each tells SPEC.md §8's success.
 */
import { useState } from 'react';
import { useIntl } from 'react-intl';
import { useSnapshot } from 'valtio';
import { LANGUAGES, type Language } from '../../../../contract/reports.ts';
import { RULE_TYPES, type RuleType } from '../../../../contract/subscriptions.ts';
import { i18nState } from '../../../lib/i18n.tsx';
import { notify, notifyFailure } from '../../../lib/notifications.ts';
import { session } from '../../../lib/session.ts';
import { Checkbox } from '../../../ui/checkbox.tsx';
import { OnlineDialogForm } from '../../../ui/online-dialog-form.tsx';
import { Select } from '../../../ui/select.tsx';
import { TextField } from '../../../ui/text-field.tsx';
import { saveRecipient, saveRule, useRecurrenceMutation } from '../subscription-queries.ts';

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A new rule. */
export function RuleDialog({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const [libelle, setLibelle] = useState('');
  const [type, setType] = useState<RuleType>('DAILY');
  const [jours, setJours] = useState<number[]>([1]);
  const [day, setDay] = useState('1');
  const [time, setTime] = useState('06:00');
  const [problem, setProblem] = useState<string | null>(null);
  const save = useRecurrenceMutation(saveRule);
  if (!isOpen) return null;
  function onSubmit() {
    const found =
      libelle.trim() === ''
        ? 'subscriptions.form.nameRequired'
        : TIME.test(time)
          ? null
          : 'subscriptions.form.badTime';
    setProblem(found);
    if (found) return;
    const [heure, minute] = time.split(':').map(Number) as [number, number];
    save.mutate(
      {
        libelle: libelle.trim(),
        type,
        jours,
        jourDuMois: day === 'last' ? null : Number(day),
        dernierJour: day === 'last',
        heure,
        minute,
      },
      {
        onSuccess: () => {
          notify.success('ruleAdded');
          onClose();
        },
        onError: notifyFailure,
      },
    );
  }
  return (
    <OnlineDialogForm
      title={t('subscriptions.rules.add')}
      isOpen
      onClose={onClose}
      onSubmit={onSubmit}
      testId="rule-form"
      offlineNoticeId="subscriptions.offline"
      offlineDisablesSubmit
      problemId={problem}
      refusal={problem}
      submitLabelId="subscriptions.form.save"
      busy={save.isPending}
    >
      <TextField label={t('subscriptions.form.name')} value={libelle} onChange={setLibelle} isRequired />
      <Select
        label={t('subscriptions.form.ruleType')}
        options={RULE_TYPES.map((id) => ({ id, label: t(`subscriptions.ruleType.${id}`) }))}
        value={type}
        onChange={(v) => setType(v as RuleType)}
      />
      {type === 'WEEKLY' ? (
        <div className="subs-days">
          {[1, 2, 3, 4, 5, 6, 7].map((d) => (
            <Checkbox
              key={d}
              isSelected={jours.includes(d)}
              onChange={(on) => setJours(on ? [...jours, d] : jours.filter((j) => j !== d))}
            >
              {t(`subscriptions.day.${d}`)}
            </Checkbox>
          ))}
        </div>
      ) : null}
      {type === 'MONTHLY' ? (
        <Select
          label={t('subscriptions.form.monthDay')}
          options={[
            ...Array.from({ length: 28 }, (_, i) => ({ id: String(i + 1), label: String(i + 1) })),
            { id: 'last', label: t('subscriptions.form.lastDay') },
          ]}
          value={day}
          onChange={(v) => setDay(String(v))}
        />
      ) : null}
      <TextField label={t('subscriptions.form.time')} description="HH:MM" value={time} onChange={setTime} />
    </OnlineDialogForm>
  );
}

/** A new recipient: an address, or (for oneself) the user's own, with a language. */
export function RecipientDialog({
  isOpen,
  onClose,
}: {
  isOpen: boolean;
  onClose: () => void;
  admin: boolean;
}) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const { user } = useSnapshot(session);
  const [me, setMe] = useState(false);
  const [email, setEmail] = useState('');
  const [langue, setLangue] = useState<Language>(i18nState.language);
  const [problem, setProblem] = useState<string | null>(null);
  const save = useRecurrenceMutation(saveRecipient);
  if (!isOpen) return null;
  function onSubmit() {
    const found = me || EMAIL.test(email.trim()) ? null : 'subscriptions.form.badEmail';
    setProblem(found);
    if (found) return;
    save.mutate(me ? { utilisateurId: user?.id ?? 0, langue } : { email: email.trim(), langue }, {
      onSuccess: () => {
        notify.success('recipientAdded');
        onClose();
      },
      onError: notifyFailure,
    });
  }
  return (
    <OnlineDialogForm
      title={t('subscriptions.recipients.add')}
      isOpen
      onClose={onClose}
      onSubmit={onSubmit}
      testId="recipient-form"
      offlineNoticeId="subscriptions.offline"
      offlineDisablesSubmit
      problemId={problem}
      refusal={problem}
      submitLabelId="subscriptions.form.save"
      busy={save.isPending}
    >
      <Checkbox isSelected={me} onChange={setMe}>
        {t('subscriptions.form.me')}
      </Checkbox>
      {me ? null : (
        <TextField
          label={t('subscriptions.form.email')}
          type="email"
          value={email}
          onChange={setEmail}
          isRequired
        />
      )}
      <Select
        label={t('subscriptions.col.language')}
        options={LANGUAGES.map((id) => ({ id, label: id.toUpperCase() }))}
        value={langue}
        onChange={(v) => setLangue(v as Language)}
      />
    </OnlineDialogForm>
  );
}
