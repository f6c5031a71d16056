/**
 * Create or edit a group: its name, its own sites (a searchable multi-choice), the companies
 * added and removed, and, as they are chosen, the sites the group then stands for. The server's
 * refusal shows at its field or under the form; what was chosen stays.
 */
import { useState } from 'react';
import { useIntl } from 'react-intl';
import { CheckboxGroup } from 'react-aria-components/CheckboxGroup';
import { Label } from 'react-aria-components/Label';
import { FieldError } from 'react-aria-components/FieldError';
import type { AdminRegroupement, Societe } from '../../../../contract/administration.ts';
import { MultiPicker } from '../../../selection/components/multi-picker.tsx';
import '../../../selection/components/selection.css';
import { Checkbox } from '../../../ui/checkbox.tsx';
import { FormFooter, RequiredLabel, ValidatedForm } from '../../../ui/form.tsx';
import { TextField } from '../../../ui/text-field.tsx';
import { effectiveSiteIds, type GroupDraft, groupProblems, siteNames } from '../group-rules.ts';
import { saveGroup } from '../sites-admin-queries.ts';
import { notifySaved, useAdminSave } from './use-admin-save.ts';

export interface GroupFormProps {
  group?: AdminRegroupement;
  companies: readonly Societe[];
  onSaved: () => void;
  onCancel: () => void;
}

/** The sites of every company, one section per company, hidden sites marked. */
function siteSections(companies: readonly Societe[], hiddenMark: string) {
  return companies.map((c) => ({
    id: `c${c.id}`,
    title: c.raisonSociale,
    items: c.sites.map((s) => ({
      id: String(s.restaurantId),
      label: s.libelle,
      detail: s.hidden ? hiddenMark : (s.codeImplant ?? undefined),
    })),
  }));
}

/** The form's state: the draft, the problems once submitted, the server's refusal, and submit. */
function useGroupForm({ group, onSaved }: GroupFormProps) {
  const [draft, setDraft] = useState<GroupDraft>({
    raisonSociale: group?.raisonSociale ?? '',
    restaurantIds: group?.restaurantIds ?? [],
    societesPlus: group?.societesPlus ?? [],
    societesMoins: group?.societesMoins ?? [],
  });
  const [submitted, setSubmitted] = useState(0);
  const { busy, refusal, setRefusal, run, refusalText } = useAdminSave();
  const problems = groupProblems(draft);
  const set = (change: Partial<GroupDraft>) => {
    setDraft((d) => ({ ...d, ...change }));
    setRefusal(null);
  };

  async function submit() {
    setSubmitted((n) => n + 1);
    if (Object.keys(problems).length > 0) return;
    await run(
      () =>
        saveGroup(
          {
            raisonSociale: draft.raisonSociale.trim(),
            restaurantIds: draft.restaurantIds,
            societesIdPlus: draft.societesPlus,
            societesIdMoins: draft.societesMoins,
          },
          group?.id,
        ),
      (saved) => {
        notifySaved('group', group === undefined, saved.raisonSociale);
        onSaved();
      },
    );
  }

  return {
    draft,
    set,
    submitted,
    shownProblems: submitted > 0 ? problems : {},
    refusal,
    refusalText,
    busy,
    submit,
  };
}

/** The group form of the module comment. */
export function GroupForm(props: GroupFormProps) {
  const { companies, onCancel } = props;
  const intl = useIntl();
  const { draft, set, submitted, shownProblems, refusal, refusalText, busy, submit } = useGroupForm(props);
  const names = siteNames(companies);
  const effective = effectiveSiteIds(draft, companies).map((id) => names.get(id) ?? `#${id}`);
  const nameError = shownProblems.name
    ? intl.formatMessage({ id: `groupsAdmin.error.${shownProblems.name}` })
    : refusal?.field === 'raisonSociale'
      ? intl.formatMessage({ id: refusal.messageId })
      : undefined;
  const companiesError = shownProblems.companies
    ? intl.formatMessage({ id: `groupsAdmin.error.${shownProblems.companies}` })
    : undefined;
  const companyBox = (c: Societe) => (
    <Checkbox key={c.id} value={String(c.id)}>
      {c.raisonSociale}
    </Checkbox>
  );
  return (
    <ValidatedForm
      className="ui-form"
      data-testid="group-form"
      refusal={refusal ?? (Object.keys(shownProblems).length > 0 ? submitted : null)}
      onSubmit={() => void submit()}
    >
      <TextField
        label={
          <RequiredLabel
            label={intl.formatMessage({ id: 'groupsAdmin.name' })}
            mark={intl.formatMessage({ id: 'sitesAdmin.required' })}
          />
        }
        value={draft.raisonSociale}
        onChange={(v) => set({ raisonSociale: v })}
        isRequired
        isInvalid={nameError !== undefined}
        errorMessage={nameError}
        autoComplete="off"
        autoFocus
      />
      <MultiPicker
        label={intl.formatMessage({ id: 'groupsAdmin.sites' })}
        summary={intl.formatMessage(
          { id: 'groupsAdmin.sites.summary' },
          { count: draft.restaurantIds.length },
        )}
        sections={siteSections(companies, intl.formatMessage({ id: 'sitesAdmin.site.hidden' }))}
        selected={draft.restaurantIds.map(String)}
        onChange={(ids) => set({ restaurantIds: ids.map(Number) })}
        searchable
        emptyText={intl.formatMessage({ id: 'groupsAdmin.noSites' })}
      />
      {(['societesPlus', 'societesMoins'] as const).map((field) => (
        <CheckboxGroup
          key={field}
          className="ui-fieldset"
          value={draft[field].map(String)}
          onChange={(ids) => set({ [field]: ids.map(Number) })}
          isInvalid={companiesError !== undefined}
        >
          <Label className="ui-field__label">{intl.formatMessage({ id: `groupsAdmin.${field}` })}</Label>
          <div className="sa-checks">{companies.map(companyBox)}</div>
          <FieldError className="ui-field__error">{companiesError}</FieldError>
        </CheckboxGroup>
      ))}
      <div role="status" className="sa-note">
        {intl.formatMessage(
          { id: 'groupsAdmin.effective' },
          { count: effective.length, names: effective.join(', ') },
        )}
      </div>
      <FormFooter
        refusal={refusal && refusal.field !== 'raisonSociale' ? refusalText() : undefined}
        submitLabel={intl.formatMessage({ id: 'sitesAdmin.save' })}
        cancelLabel={intl.formatMessage({ id: 'sitesAdmin.cancel' })}
        busy={busy}
        onCancel={onCancel}
      />
    </ValidatedForm>
  );
}
