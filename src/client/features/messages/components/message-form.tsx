/**
 * Creating or editing a message (/config/messages): a text per language (fr, en, de: at least
 * one), the severity, the first and last day (DD/MM/YYYY, both required; a new message's are
 * today in the sites' time zones), and the target sites
 * and profiles (none of either: everyone). What was typed stays when saving fails; each refusal
 * shows at its field, translated, whether it comes from the checks made here first
 * (message-draft.ts) or from the server (`InvalidField` with `details.field`).
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useIntl } from 'react-intl';
import { type AdminMessage, LANGUAGES, SEVERITIES } from '../../../../contract/administration.ts';
import { ApiFailure } from '../../../lib/http.ts';
import { MultiPicker, type PickerItem } from '../../../selection/components/multi-picker.tsx';
import { DateField } from '../../../ui/date-field.tsx';
import { FormFooter, RequiredLabel, ValidatedForm } from '../../../ui/form.tsx';
import { Select } from '../../../ui/select.tsx';
import {
  checkDraft,
  type DraftErrors,
  draftOf,
  fieldErrorOf,
  type MessageDraft,
  type Severity,
  todaysSpan,
} from '../message-draft.ts';
import { messageQueries, useSaveMessageMutation } from '../message-queries.ts';
import { MessageTextArea } from './message-text-area.tsx';

export interface MessageFormProps {
  /** The message edited, or null for a new one. */
  message: AdminMessage | null;
  /** The sites a message may target (the administrator's visible sites). */
  sites: readonly PickerItem[];
  /**
   * The IANA time zones of those sites: a new message's first and last day default to their
   * today (message-draft.ts todaysSpan), not the browser's.
   */
  timeZones: readonly string[];
  /** Called once the message is saved, or on cancel. */
  onClose: () => void;
}

/** `error.<code>` of a failed save when the catalogue tells it, else SPEC.md §8's `savedError`. */
function failureMessageId(error: unknown, messages: Record<string, unknown>): string {
  const id = error instanceof ApiFailure ? `error.${error.code}` : '';
  return id in messages ? id : 'error.savedError';
}

/** The form of the module comment. */
export function MessageForm({ message, sites, timeZones, onClose }: MessageFormProps) {
  const intl = useIntl();
  const [draft, setDraft] = useState<MessageDraft>(() => draftOf(message, todaysSpan(timeZones)));
  const [errors, setErrors] = useState<DraftErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<unknown>(null);
  const save = useSaveMessageMutation();
  const t = (id: string) => intl.formatMessage({ id });
  const change = (fields: Partial<MessageDraft>, cleared: (keyof DraftErrors)[]) => {
    setDraft((d) => ({ ...d, ...fields }));
    setErrors((e) =>
      Object.fromEntries(Object.entries(e).filter(([k]) => !cleared.includes(k as keyof DraftErrors))),
    );
  };

  async function submit() {
    if (save.isPending) return;
    setFailure(null);
    const checked = checkDraft(draft);
    if (!checked.ok) {
      setErrors(checked.errors);
      setRefusal(checked.errors);
      return;
    }
    try {
      await save.mutateAsync({ id: message?.id ?? null, input: checked.input });
      onClose();
    } catch (e) {
      const atField = fieldErrorOf(e);
      if (atField) setErrors(atField);
      else setFailure(intl.formatMessage({ id: failureMessageId(e, intl.messages) }));
      setRefusal(e);
    }
  }

  return (
    <ValidatedForm
      className="msg-form"
      onSubmit={() => void submit()}
      refusal={refusal}
      data-testid="message-form"
    >
      <TextsFieldset draft={draft} error={errors.texts} onChange={(texts) => change({ texts }, ['texts'])} />
      <Select
        label={t('messages.field.severity')}
        options={SEVERITIES.map((s) => ({ id: s, label: t(`messages.severity.${s}`) }))}
        value={draft.severity}
        onChange={(key) => change({ severity: key as Severity }, [])}
      />
      <div className="msg-form__dates">
        <DateField
          label={<RequiredLabel label={t('messages.field.fromDate')} mark={t('messages.required')} />}
          value={draft.fromDate}
          onChange={(fromDate) => change({ fromDate }, ['fromDate', 'toDate'])}
          error={errors.fromDate ? t(errors.fromDate) : undefined}
          invalidMessage={t('messages.error.notADate')}
          placeholder={t('messages.datePlaceholder')}
          description={t('messages.dateHint')}
          nullWhileInvalid
          isRequired
        />
        <DateField
          label={<RequiredLabel label={t('messages.field.toDate')} mark={t('messages.required')} />}
          value={draft.toDate}
          onChange={(toDate) => change({ toDate }, ['toDate'])}
          error={errors.toDate ? t(errors.toDate) : undefined}
          invalidMessage={t('messages.error.notADate')}
          placeholder={t('messages.datePlaceholder')}
          description={t('messages.dateHint')}
          nullWhileInvalid
          isRequired
        />
      </div>
      <Targets draft={draft} sites={sites} errors={errors} onChange={change} />
      <FormFooter
        refusal={failure}
        submitLabel={t('messages.save')}
        cancelLabel={t('messages.cancel')}
        busy={save.isPending}
        onCancel={onClose}
      />
    </ValidatedForm>
  );
}

/** The text in each language; the refusal "no text" shows at the first (French) one. */
function TextsFieldset(props: {
  draft: MessageDraft;
  error: string | undefined;
  onChange: (texts: MessageDraft['texts']) => void;
}) {
  const intl = useIntl();
  return (
    <fieldset className="msg-form__texts">
      <legend>
        {intl.formatMessage({ id: 'messages.field.texts' })}{' '}
        <span className="ui-muted">{intl.formatMessage({ id: 'messages.field.texts.hint' })}</span>
      </legend>
      {LANGUAGES.map((language, i) => (
        <MessageTextArea
          key={language}
          language={language}
          label={intl.formatMessage({ id: `messages.field.text.${language}` })}
          value={props.draft.texts[language]}
          autoFocus={i === 0}
          onChange={(text) => props.onChange({ ...props.draft.texts, [language]: text })}
          error={i === 0 && props.error ? intl.formatMessage({ id: props.error }) : undefined}
        />
      ))}
    </fieldset>
  );
}

/** The sites and profiles a message targets, with what "none chosen" means. */
function Targets(props: {
  draft: MessageDraft;
  sites: readonly PickerItem[];
  errors: DraftErrors;
  onChange: (fields: Partial<MessageDraft>, cleared: (keyof DraftErrors)[]) => void;
}) {
  const intl = useIntl();
  const profiles = useQuery(messageQueries.profiles());
  const profileItems: PickerItem[] = (profiles.data ?? []).map((p) => ({ id: String(p.id), label: p.titre }));
  const summary = (chosen: readonly string[], items: readonly PickerItem[], noneId: string) =>
    chosen.length === 0
      ? intl.formatMessage({ id: noneId })
      : chosen.map((id) => items.find((i) => i.id === id)?.label ?? `#${id}`).join(', ');
  return (
    <>
      <p className="ui-muted">{intl.formatMessage({ id: 'messages.targets.intro' })}</p>
      <MultiPicker
        label={intl.formatMessage({ id: 'messages.field.sites' })}
        summary={summary(props.draft.restaurantIds, props.sites, 'messages.targets.noSite')}
        sections={[{ id: 'sites', items: [...props.sites] }]}
        selected={props.draft.restaurantIds}
        onChange={(restaurantIds) => props.onChange({ restaurantIds }, ['restaurantIds'])}
        searchable={props.sites.length > 8}
        emptyText={intl.formatMessage({ id: 'messages.targets.noSites' })}
      />
      {props.errors.restaurantIds ? (
        <p className="ui-refusal" role="alert">
          {intl.formatMessage({ id: props.errors.restaurantIds })}
        </p>
      ) : null}
      <MultiPicker
        label={intl.formatMessage({ id: 'messages.field.profiles' })}
        summary={summary(props.draft.profileIds, profileItems, 'messages.targets.noProfile')}
        sections={[{ id: 'profiles', items: profileItems }]}
        selected={props.draft.profileIds}
        onChange={(profileIds) => props.onChange({ profileIds }, ['profileIds'])}
        searchable={profileItems.length > 8}
        emptyText={intl.formatMessage({
          id: profiles.isError ? 'messages.targets.profilesFailed' : 'messages.targets.noProfiles',
        })}
      />
      {props.errors.profileIds ? (
        <p className="ui-refusal" role="alert">
          {intl.formatMessage({ id: props.errors.profileIds })}
        </p>
      ) : null}
    </>
  );
}
