/**
 * Adding or changing a local event (SPEC.md §5 event form): type, designation, sales channel,
 * PLU (optional), sites affected, start, end, impact type and rate. Required fields are marked;
 * each refusal shows at its field in the user's language, whether from the checks made here
 * first (event-draft.ts) or from the server (`details.field`); what was typed stays when saving
 * fails. Success is told by the mutation (`eventAdded` / `eventEdited`).
 */
import { type ReactNode, useState } from 'react';
import { useIntl } from 'react-intl';
import { EVENT_TYPES, IMPACT_TYPES, type LocalEvent, SALES_CHANNELS } from '../../../../contract/events.ts';
import { ApiFailure } from '../../../lib/http.ts';
import { Button } from '../../../ui/button.tsx';
import { RequiredLabel, ValidatedForm } from '../../../ui/form.tsx';
import { TextField } from '../../../ui/text-field.tsx';
import { checkDraft, type DraftErrors, draftOf, type EventDraft, fieldErrorOf } from '../event-draft.ts';
import { useSaveEventMutation } from '../event-queries.ts';
import { DateField } from '../../../ui/date-field.tsx';
import { type Choice, ChoiceField, SitesField } from './event-fields.tsx';

export interface EventFormProps {
  /** The event changed, or null for a new one. */
  event: LocalEvent | null;
  /** The day a new event starts and ends on (wire date). */
  day: string;
  /** The sites a new event affects at first (the calendar's chosen sites). */
  defaultSites: readonly number[];
  /** Sites the user may choose (their scope). */
  sites: readonly Choice[];
  /** False while the device is offline: saving is refused before sending. */
  online: boolean;
  onClose: () => void;
}

/** `error.<code>` of a failed save when the catalogue has it, else SPEC.md §8's `savedError`. */
function failureMessageId(error: unknown, messages: Record<string, unknown>): string {
  const id = error instanceof ApiFailure ? `error.${error.code}` : '';
  return id in messages ? id : 'error.savedError';
}

/** The draft, its errors and the submit of the form (see the module comment). */
function useEventForm({ event, day, defaultSites, online, onClose }: EventFormProps) {
  const intl = useIntl();
  const [draft, setDraft] = useState<EventDraft>(() => draftOf(event, day, defaultSites));
  const [errors, setErrors] = useState<DraftErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<unknown>(null);
  const save = useSaveEventMutation();
  const change = (fields: Partial<EventDraft>) => {
    setDraft((d) => ({ ...d, ...fields }));
    setErrors((e) => {
      const kept = { ...e };
      for (const k of Object.keys(fields)) delete kept[k as keyof DraftErrors];
      if ('dateDebut' in fields) delete kept.dateFin;
      return kept;
    });
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
    if (!online) {
      setFailure(intl.formatMessage({ id: 'events.offlineWrite' }));
      setRefusal(new Error('offline'));
      return;
    }
    try {
      await save.mutateAsync(checked.input);
      onClose();
    } catch (e) {
      const atField = fieldErrorOf(e);
      if (atField) setErrors(atField);
      else setFailure(intl.formatMessage({ id: failureMessageId(e, intl.messages) }));
      setRefusal(e);
    }
  }
  return { draft, errors, failure, refusal, change, submit, pending: save.isPending };
}

/** The form of the module comment. */
export function EventForm(props: EventFormProps) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const form = useEventForm(props);
  return (
    <ValidatedForm
      className="ev-form"
      onSubmit={() => void form.submit()}
      refusal={form.refusal}
      data-testid="event-form"
    >
      <p className="ev-muted">{t('events.form.requiredHint')}</p>
      <EventFields draft={form.draft} errors={form.errors} sites={props.sites} onChange={form.change} />
      {form.failure ? (
        <p className="ev-error" role="alert">
          {form.failure}
        </p>
      ) : null}
      <div className="ev-buttons">
        <Button type="submit" variant="primary" isDisabled={form.pending}>
          {t(props.event ? 'events.save' : 'events.add')}
        </Button>
        <Button onPress={props.onClose} isDisabled={form.pending}>
          {t('events.cancel')}
        </Button>
      </div>
    </ValidatedForm>
  );
}

/** The fields, in SPEC.md §5's order of the form, each with its refusal. */
function EventFields({
  draft,
  errors,
  sites,
  onChange: change,
}: {
  draft: EventDraft;
  errors: DraftErrors;
  sites: readonly Choice[];
  onChange: (fields: Partial<EventDraft>) => void;
}) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const err = (field: keyof DraftErrors) => (errors[field] ? t(errors[field]) : undefined);
  const required = (id: string) => <RequiredLabel label={t(id)} mark={t('events.required')} />;
  const choices = (keys: readonly string[], prefix: string): Choice[] =>
    keys.map((k) => ({ id: k, label: t(`${prefix}.${k}`) }));
  return (
    <>
      <ChoiceField
        label={required('events.field.type')}
        choices={choices(EVENT_TYPES, 'events.type')}
        value={draft.typeEvenement}
        onChange={(v) => change({ typeEvenement: v as EventDraft['typeEvenement'] })}
        error={err('typeEvenement')}
        placeholder={t('events.choose')}
      />
      <TextField
        label={required('events.field.designation')}
        value={draft.designation}
        onChange={(designation) => change({ designation })}
        isRequired
        maxLength={200}
        isInvalid={errors.designation !== undefined}
        errorMessage={err('designation')}
      />
      <ChoiceField
        label={required('events.field.channel')}
        choices={choices(SALES_CHANNELS, 'events.channel')}
        value={draft.canalVente}
        onChange={(v) => change({ canalVente: v as EventDraft['canalVente'] })}
        error={err('canalVente')}
        placeholder={t('events.choose')}
      />
      <TextField
        label={t('events.field.plu')}
        description={t('events.field.plu.hint')}
        value={draft.plu}
        onChange={(plu) => change({ plu })}
        maxLength={50}
        isInvalid={errors.plu !== undefined}
        errorMessage={err('plu')}
      />
      <SitesField
        label={required('events.field.sites')}
        description={t('events.field.sites.hint')}
        sites={sites}
        value={draft.perim_affects}
        onChange={(perim_affects) => change({ perim_affects })}
        error={err('perim_affects')}
      />
      <EventPeriodAndImpact draft={draft} err={err} required={required} onChange={change} />
    </>
  );
}

/** Start and end, impact type and rate: two pairs that sit side by side on a tablet. */
function EventPeriodAndImpact({
  draft,
  err,
  required,
  onChange: change,
}: {
  draft: EventDraft;
  err: (field: keyof DraftErrors) => string | undefined;
  required: (id: string) => ReactNode;
  onChange: (fields: Partial<EventDraft>) => void;
}) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  return (
    <>
      <div className="ev-form__pair">
        <DateField
          label={required('events.field.start')}
          value={draft.dateDebut}
          onChange={(dateDebut) => change({ dateDebut })}
          error={err('dateDebut')}
          invalidMessage={intl.formatMessage({ id: 'events.error.date' })}
          placeholder={intl.formatMessage({ id: 'events.datePlaceholder' })}
          nullWhileInvalid
          isRequired
        />
        <DateField
          label={required('events.field.end')}
          value={draft.dateFin}
          onChange={(dateFin) => change({ dateFin })}
          error={err('dateFin')}
          invalidMessage={intl.formatMessage({ id: 'events.error.date' })}
          placeholder={intl.formatMessage({ id: 'events.datePlaceholder' })}
          nullWhileInvalid
          isRequired
        />
      </div>
      <div className="ev-form__pair">
        <ChoiceField
          label={required('events.field.impactType')}
          choices={IMPACT_TYPES.map((k) => ({ id: k, label: t(`events.impact.${k}`) }))}
          value={draft.typeImpact}
          onChange={(v) => change({ typeImpact: v as EventDraft['typeImpact'] })}
          error={err('typeImpact')}
          placeholder={t('events.choose')}
        />
        <TextField
          label={required('events.field.rate')}
          description={t('events.field.rate.hint')}
          value={draft.tauxImpact}
          inputMode="decimal"
          onChange={(tauxImpact) => change({ tauxImpact })}
          isRequired
          isInvalid={err('tauxImpact') !== undefined}
          errorMessage={err('tauxImpact')}
        />
      </div>
    </>
  );
}
