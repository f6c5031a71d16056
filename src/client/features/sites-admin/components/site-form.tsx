/**
 * Create or edit a site: label, company, location code (code_implant), currency, time zone (searchable),
 * business-day start (24-hour HH:mm), and the names of its terminals and sellers. A site labelled
 * 'NON REMPLI' is accepted and marked: it stays hidden from every picker and report (SPEC.md §3).
 * Checks run on submit (site-rules.ts); the server's refusal shows at its field; what was typed
 * stays.
 */
import { useMemo, useState } from 'react';
import { useIntl } from 'react-intl';
import type { AdminSite, Societe } from '../../../../contract/administration.ts';
import { FormFooter, RequiredLabel, ValidatedForm } from '../../../ui/form.tsx';
import { Select } from '../../../ui/select.tsx';
import { TextField } from '../../../ui/text-field.tsx';
import {
  isHiddenLabel,
  type SiteDraft,
  type SiteField,
  type SiteProblems,
  siteInput,
  siteIsValid,
  siteProblems,
  timeZones,
} from '../site-rules.ts';
import { saveSite } from '../sites-admin-queries.ts';
import { TimeZoneField } from './time-zone-field.tsx';
import { notifySaved, useAdminSave } from './use-admin-save.ts';

export interface SiteFormProps {
  /** The site edited; absent for a new one. */
  site?: AdminSite;
  /** The company a new site starts in. */
  societeId?: number;
  companies: readonly Societe[];
  onSaved: (saved: AdminSite) => void;
  onCancel: () => void;
}

/** Fields that show their own error; a refusal of any other shows under the form. */
const FIELDS_SHOWN: ReadonlySet<string> = new Set<SiteField>([
  'libelle',
  'societeId',
  'codeImplant',
  'currency',
  'timeZone',
  'dayStart',
]);

const NO_PROBLEMS: SiteProblems = { fields: {}, emptyTerminals: [], emptySellers: [] };

function draftOf(site: AdminSite | undefined, societeId: number | undefined): SiteDraft {
  return {
    libelle: site?.libelle ?? '',
    societeId: site?.societeId ?? societeId ?? null,
    codeImplant: site?.codeImplant ?? '',
    currency: site?.currency ?? 'EUR',
    timeZone: site?.timeZone ?? 'Europe/Paris',
    dayStart: site?.dayStart ?? '05:00',
    caisses: site?.caisses.map((c) => ({ ...c })) ?? [],
    vendeurs: site?.vendeurs.map((v) => ({ ...v })) ?? [],
  };
}

/** The form's state: the draft, the problems of the last submit, the server's refusal. */
function useSiteForm(props: SiteFormProps) {
  const intl = useIntl();
  const [draft, setDraft] = useState<SiteDraft>(() => draftOf(props.site, props.societeId));
  const [problems, setProblems] = useState<SiteProblems>(NO_PROBLEMS);
  const { busy, refusal, setRefusal, run, refusalText } = useAdminSave();

  async function submit() {
    if (busy) return;
    const found = siteProblems(draft);
    setProblems(found);
    if (!siteIsValid(found)) return;
    await run(
      () => saveSite(siteInput(draft), props.site?.restaurantId),
      (saved) => {
        notifySaved('site', props.site === undefined, saved.libelle);
        props.onSaved(saved);
      },
    );
  }

  function errorOf(field: SiteField): string | undefined {
    const problem = problems.fields[field];
    if (problem) return intl.formatMessage({ id: `sitesAdmin.site.error.${problem}` });
    if (refusal?.field === field) return intl.formatMessage({ id: refusal.messageId });
    return undefined;
  }

  function set<K extends keyof SiteDraft>(field: K, value: SiteDraft[K]) {
    setDraft((d) => ({ ...d, [field]: value }));
    // The field's own error goes as soon as it is changed; the others wait for the next submit.
    setProblems((p) => ({ ...p, fields: { ...p.fields, [field]: undefined } }));
    if (refusal?.field === field) setRefusal(null);
  }

  return { draft, setDraft, problems, refusal, refusalText, busy, submit, errorOf, set };
}

/** The site form of the module comment. */
export function SiteForm(props: SiteFormProps) {
  const intl = useIntl();
  const form = useSiteForm(props);
  const { draft, errorOf, set } = form;
  const zones = useMemo(timeZones, []);
  const requiredMark = intl.formatMessage({ id: 'sitesAdmin.required' });
  const required = (id: string) => <RequiredLabel label={intl.formatMessage({ id })} mark={requiredMark} />;
  const text = (field: 'libelle' | 'codeImplant' | 'currency' | 'dayStart', isRequired: boolean) => (
    <TextField
      label={
        isRequired
          ? required(`sitesAdmin.site.${field}`)
          : intl.formatMessage({ id: `sitesAdmin.site.${field}` })
      }
      description={
        field === 'currency' || field === 'dayStart'
          ? intl.formatMessage({ id: `sitesAdmin.site.${field}.hint` })
          : undefined
      }
      value={draft[field]}
      onChange={(v) => set(field, v)}
      isRequired={isRequired}
      isInvalid={errorOf(field) !== undefined}
      errorMessage={errorOf(field)}
      inputMode={field === 'dayStart' ? 'numeric' : undefined}
      autoComplete="off"
      autoFocus={field === 'libelle'}
    />
  );
  return (
    <ValidatedForm
      className="ui-form"
      data-testid="site-form"
      refusal={form.refusal ?? (siteIsValid(form.problems) ? null : form.problems)}
      onSubmit={() => void form.submit()}
    >
      {text('libelle', true)}
      {isHiddenLabel(draft.libelle) ? (
        <p className="sa-note" role="note">
          {intl.formatMessage({ id: 'sitesAdmin.site.hiddenNote' })}
        </p>
      ) : null}
      <Select
        label={required('sitesAdmin.site.company')}
        options={props.companies.map((c) => ({ id: c.id, label: c.raisonSociale }))}
        value={draft.societeId}
        onChange={(key) => set('societeId', Number(key))}
        placeholder={intl.formatMessage({ id: 'sitesAdmin.site.company.choose' })}
      />
      {errorOf('societeId') ? (
        <p className="ui-refusal" role="alert">
          {errorOf('societeId')}
        </p>
      ) : null}
      {text('codeImplant', false)}
      {text('currency', true)}
      <TimeZoneField
        label={required('sitesAdmin.site.timeZone')}
        description={intl.formatMessage({ id: 'sitesAdmin.site.timeZone.hint' })}
        value={draft.timeZone}
        onChange={(zone) => set('timeZone', zone)}
        zones={zones}
        errorMessage={errorOf('timeZone')}
        isRequired
      />
      {text('dayStart', true)}
      <NamesFieldset form={form} />
      <SiteFormFooter form={form} onCancel={props.onCancel} />
    </ValidatedForm>
  );
}

type SiteFormState = ReturnType<typeof useSiteForm>;

/** The terminals' and sellers' names, each in its own labelled field. */
function NamesFieldset({ form }: { form: SiteFormState }) {
  const intl = useIntl();
  const { draft, setDraft, problems } = form;
  const emptyName = intl.formatMessage({ id: 'sitesAdmin.site.error.required' });
  if (draft.caisses.length === 0 && draft.vendeurs.length === 0) return null;
  return (
    <>
      {draft.caisses.length > 0 ? (
        <fieldset className="ui-fieldset">
          <legend>{intl.formatMessage({ id: 'sitesAdmin.site.terminals' })}</legend>
          {draft.caisses.map((c, i) => (
            <TextField
              key={c.id}
              label={intl.formatMessage({ id: 'sitesAdmin.site.terminal' }, { id: c.id })}
              value={c.libelle}
              onChange={(v) =>
                setDraft((d) => ({
                  ...d,
                  caisses: d.caisses.map((x, j) => (j === i ? { ...x, libelle: v } : x)),
                }))
              }
              isInvalid={problems.emptyTerminals.includes(c.id) && c.libelle.trim() === ''}
              errorMessage={emptyName}
              autoComplete="off"
            />
          ))}
        </fieldset>
      ) : null}
      {draft.vendeurs.length > 0 ? (
        <fieldset className="ui-fieldset">
          <legend>{intl.formatMessage({ id: 'sitesAdmin.site.sellers' })}</legend>
          {draft.vendeurs.map((v, i) => (
            <TextField
              key={v.code}
              label={intl.formatMessage({ id: 'sitesAdmin.site.seller' }, { code: v.code })}
              value={v.nom}
              onChange={(nom) =>
                setDraft((d) => ({ ...d, vendeurs: d.vendeurs.map((x, j) => (j === i ? { ...x, nom } : x)) }))
              }
              isInvalid={problems.emptySellers.includes(v.code) && v.nom.trim() === ''}
              errorMessage={emptyName}
              autoComplete="off"
            />
          ))}
        </fieldset>
      ) : null}
    </>
  );
}

/** The server's refusal that names no field, and the buttons. */
function SiteFormFooter({ form, onCancel }: { form: SiteFormState; onCancel: () => void }) {
  const intl = useIntl();
  const { refusal, busy } = form;
  return (
    <FormFooter
      refusal={refusal && !FIELDS_SHOWN.has(refusal.field ?? '') ? form.refusalText() : undefined}
      submitLabel={intl.formatMessage({ id: 'sitesAdmin.save' })}
      cancelLabel={intl.formatMessage({ id: 'sitesAdmin.cancel' })}
      busy={busy}
      onCancel={onCancel}
    />
  );
}
