/**
 * The headers sent to an HTTPS endpoint (issue #29, decision 0044): name, value and a "secret"
 * flag each. A secret value is stored encrypted on the server and never shown again: the row says
 * "••• set" with "replace"; left so, the save keeps the stored value. A header the server refuses
 * (not a token, reserved such as Host, twice, a line break, no value) shows its reason in place.
 */
import { useIntl } from 'react-intl';
import { Button } from '../../../ui/button.tsx';
import { Checkbox } from '../../../ui/checkbox.tsx';
import { TextField } from '../../../ui/text-field.tsx';
import type { DraftHeader, ItemError } from '../integration-draft.ts';

/** The list of headers with add, remove, replace. */
export function HeaderFields({
  headers,
  setHeaders,
  error,
}: {
  headers: DraftHeader[];
  setHeaders: (headers: DraftHeader[]) => void;
  error: ItemError | null;
}) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const patch = (i: number, p: Partial<DraftHeader>) =>
    setHeaders(headers.map((h, j) => (j === i ? { ...h, ...p } : h)));
  return (
    <fieldset className="ui-fieldset">
      <legend>{t('integrations.headers')}</legend>
      <p className="ui-muted">{t('integrations.headers.help')}</p>
      <ol className="integration-headers">
        {headers.map((h, i) => {
          const n = i + 1;
          const problem = error?.field === 'entetes' && error.index === i ? error.reason : null;
          const message = problem
            ? t(
                problem === 'SecretKeyMissing'
                  ? 'integrations.error.secretKey'
                  : `integrations.error.header.${problem}`,
              )
            : undefined;
          const nameProblem =
            problem === 'BadName' || problem === 'ReservedName' || problem === 'DuplicateName';
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: a header is its place in the list while typed
            <li key={i} className="integration-headers__row">
              <TextField
                label={t('integrations.headers.name', { n })}
                value={h.nom}
                autoComplete="off"
                onChange={(v) => patch(i, { nom: v })}
                isInvalid={nameProblem}
                errorMessage={nameProblem ? message : undefined}
              />
              {h.secret && h.stored ? (
                <div className="integration-headers__stored">
                  <span>{t('integrations.headers.stored')}</span>
                  <Button
                    aria-label={t('integrations.headers.replaceLabel', { n })}
                    onPress={() => patch(i, { stored: false, valeur: '' })}
                  >
                    {t('integrations.headers.replace')}
                  </Button>
                </div>
              ) : (
                <TextField
                  label={t('integrations.headers.value', { n })}
                  type={h.secret ? 'password' : 'text'}
                  autoComplete={h.secret ? 'new-password' : 'off'}
                  value={h.valeur}
                  onChange={(v) => patch(i, { valeur: v })}
                  isInvalid={problem !== null && !nameProblem}
                  errorMessage={!nameProblem ? message : undefined}
                />
              )}
              <Checkbox
                isSelected={h.secret}
                isDisabled={h.stored}
                onChange={(v) => patch(i, { secret: v })}
                aria-label={t('integrations.headers.secretLabel', { n })}
              >
                {t('integrations.headers.secret')}
              </Checkbox>
              <Button
                aria-label={t('integrations.headers.removeLabel', { n })}
                onPress={() => setHeaders(headers.filter((_, j) => j !== i))}
              >
                {t('integrations.headers.remove')}
              </Button>
            </li>
          );
        })}
      </ol>
      <div className="ui-buttons">
        <Button
          isDisabled={headers.length >= 20}
          onPress={() => setHeaders([...headers, { nom: '', valeur: '', secret: false, stored: false }])}
        >
          {t('integrations.headers.add')}
        </Button>
      </div>
    </fieldset>
  );
}
