/**
 * Create or edit a company (raison sociale, enseigne, SIREN, SIRET, licence code, location code).
 * SIREN and SIRET are checked as they are typed (company-rules.ts); the rest on submit. A refusal
 * of the server shows at its field when it names one, else under the form; what was typed stays.
 */
import { useState } from 'react';
import { useIntl } from 'react-intl';
import type { Societe } from '../../../../contract/administration.ts';
import { FormFooter, RequiredLabel, ValidatedForm } from '../../../ui/form.tsx';
import { TextField } from '../../../ui/text-field.tsx';
import {
  type CompanyDraft,
  type CompanyField,
  companyInput,
  companyProblems,
  showsWhileTyping,
  TEXT_MAX,
} from '../company-rules.ts';
import { saveCompany } from '../sites-admin-queries.ts';
import { notifySaved, useAdminSave } from './use-admin-save.ts';

export interface CompanyFormProps {
  /** The company edited; absent for a new one. */
  company?: Societe;
  /** Called once saved (the success is already notified). */
  onSaved: (saved: Societe) => void;
  onCancel: () => void;
}

function draftOf(company: Societe | undefined): CompanyDraft {
  return {
    raisonSociale: company?.raisonSociale ?? '',
    enseigne: company?.enseigne ?? '',
    siren: company?.siren ?? '',
    siret: company?.siret ?? '',
    codeLicence: company?.codeLicence ?? '',
    codeImplant: company?.codeImplant ?? '',
  };
}

/** Fields in the order of the form, with their labels' message ids. */
const FIELDS: readonly { field: CompanyField; required?: boolean; numeric?: boolean }[] = [
  { field: 'raisonSociale', required: true },
  { field: 'enseigne' },
  { field: 'siren', numeric: true },
  { field: 'siret', numeric: true },
  { field: 'codeLicence' },
  { field: 'codeImplant' },
];

/** The company form of the module comment. */
export function CompanyForm({ company, onSaved, onCancel }: CompanyFormProps) {
  const intl = useIntl();
  const [draft, setDraft] = useState<CompanyDraft>(() => draftOf(company));
  const [left, setLeft] = useState<ReadonlySet<CompanyField>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  const { busy, refusal, setRefusal, run, refusalText } = useAdminSave();
  const [attempt, setAttempt] = useState(0);
  const problems = companyProblems(draft);

  function errorOf(field: CompanyField): string | undefined {
    const problem = problems[field];
    if (problem && (submitted || left.has(field) || showsWhileTyping(field, draft))) {
      return intl.formatMessage({ id: `sitesAdmin.company.error.${problem}` });
    }
    if (refusal?.field === field) return intl.formatMessage({ id: refusal.messageId });
    return undefined;
  }

  async function submit() {
    setSubmitted(true);
    setAttempt((n) => n + 1);
    if (Object.keys(problems).length > 0) return;
    await run(
      () => saveCompany(companyInput(draft), company?.id),
      (saved) => {
        notifySaved('company', company === undefined, saved.raisonSociale);
        onSaved(saved);
      },
    );
  }

  const requiredMark = intl.formatMessage({ id: 'sitesAdmin.required' });
  return (
    <ValidatedForm
      className="ui-form"
      data-testid="company-form"
      refusal={submitted && Object.keys(problems).length > 0 ? attempt : refusal}
      onSubmit={() => void submit()}
    >
      {FIELDS.map(({ field, required, numeric }) => {
        const label = intl.formatMessage({ id: `sitesAdmin.company.${field}` });
        const error = errorOf(field);
        return (
          <TextField
            key={field}
            label={required ? <RequiredLabel label={label} mark={requiredMark} /> : label}
            description={numeric ? intl.formatMessage({ id: `sitesAdmin.company.${field}.hint` }) : undefined}
            value={draft[field]}
            onChange={(v) => {
              setDraft((d) => ({ ...d, [field]: v }));
              if (refusal?.field === field) setRefusal(null);
            }}
            onBlur={() => setLeft((s) => new Set(s).add(field))}
            inputMode={numeric ? 'numeric' : undefined}
            maxLength={numeric ? 20 : TEXT_MAX + 20}
            isRequired={required}
            isInvalid={error !== undefined}
            errorMessage={error}
            autoComplete="off"
            autoFocus={field === 'raisonSociale'}
          />
        );
      })}
      <FormFooter
        refusal={refusal && !FIELDS.some((f) => f.field === refusal.field) ? refusalText() : undefined}
        submitLabel={intl.formatMessage({ id: 'sitesAdmin.save' })}
        cancelLabel={intl.formatMessage({ id: 'sitesAdmin.cancel' })}
        busy={busy}
        onCancel={onCancel}
      />
    </ValidatedForm>
  );
}
