/**
 * The form of a profile of /config/profils, new or existing (SPEC.md §3 Profile): title; rights
 * as labelled checkboxes from bo/infra/getDroits in the interface language (label and
 * description); site scope — every site, or chosen sites plus added and removed companies
 * (SPEC.md §6); ticket options (contract TICKET_OPTIONS); criteria as key/value rows; terminal
 * profile. Checks run before any call; refusals land at their field or above the buttons; what
 * was typed stays until the save succeeds.
 */
import { useState } from 'react';
import { Radio, RadioGroup } from 'react-aria-components/RadioGroup';
import { useIntl } from 'react-intl';
import {
  type Droit,
  type Profile,
  type Societe,
  TICKET_OPTIONS,
} from '../../../../contract/administration.ts';
import { Button } from '../../../ui/button.tsx';
import { Checkbox } from '../../../ui/checkbox.tsx';
import { FormFooter, FormRefusal, RequiredLabel, ValidatedForm } from '../../../ui/form.tsx';
import { TextField } from '../../../ui/text-field.tsx';
import {
  checkProfileDraft,
  criterionRow,
  newProfileDraft,
  type ProfileDraft,
  type ProfileFormProblems,
  profileDraftOf,
  profileInput,
  profileRefusal,
} from '../profile-form-model.ts';
import { visibleSites } from '../user-list-model.ts';
import { createProfile, saveProfile, useUsersAdminMutation } from '../users-admin-queries.ts';
import { CheckGroup, CompanyChanges, useProblemText } from './form-parts.tsx';

export interface ProfileFormProps {
  /** The profile edited, or null for a new one. */
  profile: Profile | null;
  rights: readonly Droit[];
  companies: readonly Societe[];
  onSaved: () => void;
  onCancel: () => void;
}

const NONE: ProfileFormProblems = { fields: {}, form: null };

/** The form's state, its checks and its submit (create, or save). */
function useProfileForm({ profile, onSaved }: ProfileFormProps) {
  const [draft, setDraft] = useState<ProfileDraft>(() =>
    profile ? profileDraftOf(profile) : newProfileDraft(),
  );
  const [problems, setProblems] = useState<ProfileFormProblems>(NONE);
  const create = useUsersAdminMutation(createProfile, (p) => ({
    code: 'profileCreated',
    values: { name: p.titre },
  }));
  const save = useUsersAdminMutation((d: ProfileDraft) => saveProfile(profile?.id ?? 0, profileInput(d)));

  async function submit() {
    const checked = checkProfileDraft(draft);
    setProblems(checked);
    if (Object.keys(checked.fields).length > 0) return;
    try {
      if (profile) await save.mutateAsync(draft);
      else await create.mutateAsync(profileInput(draft));
      onSaved();
    } catch (e) {
      setProblems(profileRefusal(e));
    }
  }
  const update = (change: Partial<ProfileDraft>) => setDraft((d) => ({ ...d, ...change }));
  return { draft, setDraft, update, problems, submit, busy: create.isPending || save.isPending };
}

/** The profile form of the module comment. */
export function ProfileForm(props: ProfileFormProps) {
  const intl = useIntl();
  const text = useProblemText();
  const { draft, setDraft, update, problems, submit, busy } = useProfileForm(props);
  const refused = Object.keys(problems.fields).length > 0 || problems.form !== null ? problems : null;
  const rightIds = new Set(props.rights.map((r) => r.code));
  return (
    <ValidatedForm
      className="ui-form"
      onSubmit={() => void submit()}
      refusal={refused}
      data-testid="profile-form"
    >
      <TextField
        label={
          <RequiredLabel
            label={intl.formatMessage({ id: 'profilesAdmin.field.titre' })}
            mark={intl.formatMessage({ id: 'usersAdmin.required' })}
          />
        }
        value={draft.titre}
        onChange={(titre) => update({ titre })}
        maxLength={200}
        isRequired
        autoFocus
        autoComplete="off"
        isInvalid={problems.fields.titre !== undefined}
        errorMessage={text(problems.fields.titre)}
      />
      <CheckGroup
        className="ua-rights"
        label={intl.formatMessage({ id: 'profilesAdmin.field.droits' })}
        options={[
          ...props.rights.map((r) => ({ id: r.code, label: r.libelle, description: r.description })),
          // A right the server no longer lists stays visible, so unticking it is possible.
          ...draft.droits.filter((d) => !rightIds.has(d)).map((d) => ({ id: d, label: d })),
        ]}
        value={draft.droits}
        onChange={(droits) => update({ droits })}
        error={text(problems.fields.droits)}
      />
      <SiteScope
        draft={draft}
        companies={props.companies}
        onChange={setDraft}
        error={text(problems.fields.scope)}
      />
      <CheckGroup
        label={intl.formatMessage({ id: 'profilesAdmin.field.optionsTickets' })}
        options={TICKET_OPTIONS.map((o) => ({
          id: o,
          label: intl.formatMessage({ id: `profilesAdmin.ticketOption.${o}` }),
        }))}
        value={draft.optionsTickets}
        onChange={(optionsTickets) => update({ optionsTickets })}
      />
      <CriteriaRows draft={draft} update={update} error={text(problems.fields.criteres)} />
      <Checkbox isSelected={draft.profileCaisse} onChange={(profileCaisse) => update({ profileCaisse })}>
        {intl.formatMessage({ id: 'profilesAdmin.field.profileCaisse' })}
      </Checkbox>
      <FormFooter
        refusal={text(problems.form)}
        submitLabel={intl.formatMessage({
          id: props.profile ? 'profilesAdmin.save' : 'profilesAdmin.create',
        })}
        cancelLabel={intl.formatMessage({ id: 'usersAdmin.cancel' })}
        busy={busy}
        onCancel={props.onCancel}
      />
    </ValidatedForm>
  );
}

/** Every site, or chosen sites (grouped by company) with companies added or removed. */
function SiteScope(props: {
  draft: ProfileDraft;
  companies: readonly Societe[];
  onChange: (update: (draft: ProfileDraft) => ProfileDraft) => void;
  error: string | undefined;
}) {
  const intl = useIntl();
  const { draft } = props;
  const sites = visibleSites(props.companies);
  const t = (id: string) => intl.formatMessage({ id: `profilesAdmin.scope.${id}` });
  return (
    <fieldset className="ui-fieldset ua-fieldset">
      <legend id="ua-scope-legend">{t('title')}</legend>
      <RadioGroup
        className="ua-radios"
        aria-labelledby="ua-scope-legend"
        value={draft.scope}
        onChange={(v) => props.onChange((d) => ({ ...d, scope: v === 'all' ? 'all' : 'chosen' }))}
      >
        <Radio value="all" className="ua-radio">
          {t('all')}
        </Radio>
        <Radio value="chosen" className="ua-radio">
          {t('chosen')}
        </Radio>
      </RadioGroup>
      {draft.scope === 'chosen' ? (
        <>
          <CheckGroup
            className="ua-sitelist"
            label={t('sites')}
            options={sites.map((s) => ({ id: String(s.restaurantId), label: s.libelle }))}
            value={draft.restaurantIds.map(String)}
            onChange={(ids) => props.onChange((d) => ({ ...d, restaurantIds: ids.map(Number) }))}
            error={props.error}
          />
          <CompanyChanges
            plusLabel={t('plus')}
            minusLabel={t('minus')}
            companies={props.companies}
            draft={draft}
            onChange={props.onChange}
          />
        </>
      ) : null}
    </fieldset>
  );
}

/** The criteria as key/value rows: add a row, remove one; empty rows are not sent. */
function CriteriaRows(props: {
  draft: ProfileDraft;
  update: (change: Partial<ProfileDraft>) => void;
  error: string | undefined;
}) {
  const intl = useIntl();
  const rows = props.draft.criteres;
  const setRow = (rowId: number, change: { key?: string; value?: string }) =>
    props.update({ criteres: rows.map((r) => (r.rowId === rowId ? { ...r, ...change } : r)) });
  const t = (id: string, values?: Record<string, string | number>) =>
    intl.formatMessage({ id: `profilesAdmin.criteria.${id}` }, values);
  return (
    <fieldset className="ui-fieldset ua-fieldset">
      <legend>{t('title')}</legend>
      {rows.length === 0 ? <p className="ui-muted">{t('none')}</p> : null}
      {rows.map((row, i) => (
        <div key={row.rowId} className="ua-criterion">
          <TextField
            label={t('key', { n: i + 1 })}
            value={row.key}
            onChange={(key) => setRow(row.rowId, { key })}
            maxLength={64}
            autoComplete="off"
            isInvalid={props.error !== undefined}
          />
          <TextField
            label={t('value', { n: i + 1 })}
            value={row.value}
            onChange={(value) => setRow(row.rowId, { value })}
            maxLength={200}
            autoComplete="off"
          />
          <Button
            className="ui-danger"
            onPress={() => props.update({ criteres: rows.filter((r) => r.rowId !== row.rowId) })}
            aria-label={t('remove.label', { n: i + 1 })}
          >
            {t('remove')}
          </Button>
        </div>
      ))}
      <FormRefusal text={props.error} />
      <Button onPress={() => props.update({ criteres: [...rows, criterionRow()] })}>{t('add')}</Button>
    </fieldset>
  );
}
