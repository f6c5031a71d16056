/**
 * The account plan of the chosen company on /fec (issue #29, decision record 0037): for each role
 * (sales and VAT collected per rate, each payment method, the rounding accounts 658 / 758) its PCG
 * account and label, editable by FEC_CONFIGURATION holders. Accounts are checked here as the
 * server checks them (digits, class 1 to 8, at least 3 digits); a refusal, here or by the server,
 * marks the field and keeps everything typed. "Default plan" puts the defaults back in the form,
 * saved with Save like any change.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { type IntlShape, useIntl } from 'react-intl';
import { type FecPlan, isPcgAccount, MAX_PLAN_LABEL } from '../../../../contract/fec.ts';
import { ApiFailure } from '../../../lib/http.ts';
import { notify } from '../../../lib/notifications.ts';
import { keyedFailure, RequestKeys } from '../../../lib/request-keys.ts';
import { Button } from '../../../ui/button.tsx';
import { Card, CardTitle } from '../../../ui/card.tsx';
import { FormRefusal, ValidatedForm } from '../../../ui/form.tsx';
import { TextField } from '../../../ui/text-field.tsx';
import { fecQueries, saveFecPlan } from '../fec-queries.ts';
import './fec-plan.css';

/** What the form holds for one role. */
interface Row {
  role: string;
  account: string;
  label: string;
  defaultAccount: string;
  defaultLabel: string;
}

/** A field's refusal: which role, which field, the message id. */
type Errors = Record<string, { account?: string; label?: string }>;

/** The role's name in the user's language: `SALES_0.2` → "Sales excl. VAT at 20%". */
export function roleName(intl: IntlShape, role: string): string {
  const rated = /^(SALES|VAT)_(.+)$/.exec(role);
  if (rated) {
    const rate = intl.formatNumber(Number(rated[2]), { style: 'percent', maximumFractionDigits: 1 });
    return intl.formatMessage({ id: `fec.plan.role.${rated[1]}` }, { rate });
  }
  const id = `fec.plan.role.${role}`;
  return intl.messages[id] ? intl.formatMessage({ id }) : role;
}

/** The refusals of `rows` as the server would refuse them (PCG account, label 1–100 characters). */
function checkRows(rows: Row[]): Errors {
  const errors: Errors = {};
  for (const r of rows) {
    if (!isPcgAccount(r.account.trim())) errors[r.role] = { account: 'fec.plan.error.account' };
    const label = r.label.trim();
    if (label === '' || label.length > MAX_PLAN_LABEL) {
      errors[r.role] = { ...errors[r.role], label: 'fec.plan.error.label' };
    }
  }
  return errors;
}

/** The form's rows from a plan answer. */
function rowsOf(plan: FecPlan): Row[] {
  return plan.accounts.map((a) => ({ ...a }));
}

/** One fieldset per role: its account (the default said below it) and label, each with its refusal. */
function PlanFields(props: {
  rows: Row[];
  errors: Errors;
  onEdit: (role: string, field: 'account' | 'label', value: string) => void;
}) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  return props.rows.map((r) => {
    const error = props.errors[r.role];
    return (
      <fieldset key={r.role} className="ui-fieldset fec-plan__row" data-role={r.role}>
        <legend>{roleName(intl, r.role)}</legend>
        <TextField
          label={t('fec.plan.account')}
          value={r.account}
          onChange={(v) => props.onEdit(r.role, 'account', v)}
          inputMode="numeric"
          description={t('fec.plan.defaultAccount', { account: r.defaultAccount })}
          isInvalid={!!error?.account}
          errorMessage={error?.account ? t(error.account) : undefined}
        />
        <TextField
          label={t('fec.plan.label')}
          value={r.label}
          onChange={(v) => props.onEdit(r.role, 'label', v)}
          isInvalid={!!error?.label}
          errorMessage={error?.label ? t(error.label, { max: MAX_PLAN_LABEL }) : undefined}
        />
      </fieldset>
    );
  });
}

/** The plan card of company `societe` for user `userId`. */
export function FecPlanForm({ userId, societe }: { userId: number; societe: number }) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const queryClient = useQueryClient();
  const plan = useQuery(fecQueries.plan(userId, societe));
  const [rows, setRows] = useState<Row[] | null>(null);
  const [errors, setErrors] = useState<Errors>({});
  const [refusal, setRefusal] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [busy, setBusy] = useState(false);
  const keys = useRef(new RequestKeys());

  // A new company: start again from its plan.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset on the company only
  useEffect(() => {
    setRows(null);
    setErrors({});
    setRefusal(null);
  }, [societe]);
  const shown = rows ?? (plan.data ? rowsOf(plan.data) : null);

  function edit(role: string, field: 'account' | 'label', value: string) {
    if (!shown) return;
    setRows(shown.map((r) => (r.role === role ? { ...r, [field]: value } : r)));
    if (errors[role]?.[field]) setErrors({ ...errors, [role]: { ...errors[role], [field]: undefined } });
  }

  function resetToDefaults() {
    if (!shown) return;
    setRows(shown.map((r) => ({ ...r, account: r.defaultAccount, label: r.defaultLabel })));
    setErrors({});
    setRefusal(null);
  }

  async function submit() {
    if (!shown || busy) return;
    setRefusal(null);
    const found = checkRows(shown);
    setErrors(found);
    setAttempt((n) => n + 1);
    if (Object.keys(found).length > 0) return;
    const input = {
      accounts: shown.map((r) => ({ role: r.role, account: r.account.trim(), label: r.label.trim() })),
    };
    setBusy(true);
    try {
      const saved = await saveFecPlan(userId, societe, input, keys.current.keyFor(JSON.stringify(input)));
      keys.current.settle();
      queryClient.setQueryData(fecQueries.plan(userId, societe).queryKey, saved);
      setRows(rowsOf(saved));
      notify.success('SuccessMod');
    } catch (e) {
      const outcome = keyedFailure(e, { offline: 'error.Network Error', unexpected: 'app.unexpectedError' });
      if (outcome.settle) keys.current.settle();
      const field = e instanceof ApiFailure ? e.details?.field : undefined;
      const role = e instanceof ApiFailure ? String(e.details?.role) : '';
      if (
        e instanceof ApiFailure &&
        e.code === 'InvalidField' &&
        (field === 'account' || field === 'label')
      ) {
        setErrors({ [role]: { [field]: `fec.plan.error.${field}` } });
      } else if (e instanceof ApiFailure && e.code === 'InvalidField' && field === 'role') {
        setRefusal(t('fec.plan.error.role', { role }));
      } else {
        setRefusal(t(outcome.messageId, { role }));
      }
      setAttempt((n) => n + 1);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card labelledBy="fec-plan-heading">
      <CardTitle id="fec-plan-heading">{t('fec.plan.heading')}</CardTitle>
      <p className="ui-muted">{t('fec.plan.intro')}</p>
      {plan.isError ? <FormRefusal text={t('fec.plan.loadFailed')} /> : null}
      {!shown ? (
        plan.isError ? null : (
          <p className="ui-muted">{t('fec.plan.loading')}</p>
        )
      ) : (
        <ValidatedForm
          className="ui-form"
          onSubmit={() => void submit()}
          refusal={Object.keys(errors).length > 0 ? attempt : null}
          aria-labelledby="fec-plan-heading"
        >
          <p className="ui-muted">{t(plan.data?.saved ? 'fec.plan.own' : 'fec.plan.defaults')}</p>
          <PlanFields rows={shown} errors={errors} onEdit={edit} />
          <FormRefusal text={refusal} />
          <div className="ui-buttons">
            <Button type="submit" variant="primary" isDisabled={busy}>
              {t('fec.plan.save')}
            </Button>
            <Button onPress={resetToDefaults} isDisabled={busy}>
              {t('fec.plan.reset')}
            </Button>
          </div>
        </ValidatedForm>
      )}
    </Card>
  );
}
