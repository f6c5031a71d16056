/**
 * The file layout of a partner integration (issue #29, decision 0044): the columns chosen from
 * the data's fields, named as the partner wants, reordered and removed; the CSV options and the
 * file name pattern; and the preview of the file's first lines, computed by the server on real
 * data (POST bo/integrations/preview). A column the server refuses shows its reason under its name.
 */
import { useState } from 'react';
import { useIntl } from 'react-intl';
import { DATE_FORMATS, ENCODINGS, type IntegrationPreview } from '../../../../contract/integrations.ts';
import { ApiFailure } from '../../../lib/http.ts';
import { Button } from '../../../ui/button.tsx';
import { Checkbox } from '../../../ui/checkbox.tsx';
import { FormRefusal } from '../../../ui/form.tsx';
import { Select } from '../../../ui/select.tsx';
import { TextField } from '../../../ui/text-field.tsx';
import { type Draft, fieldsOf, type ItemError, itemError, moved } from '../integration-draft.ts';
import { previewIntegration } from '../integration-queries.ts';

const SEPARATORS = [';', ',', '\t', '|'] as const;

type Layout = Draft['mise'];

/** The chosen columns: field, name, move up or down, remove; add one. */
function ColumnList({
  draft,
  setLayout,
  error,
}: {
  draft: Draft;
  setLayout: (patch: Partial<Layout>) => void;
  error: ItemError | null;
}) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const columns = draft.mise.colonnes;
  const fields = fieldsOf(draft.partenaire);
  const setColumns = (colonnes: Layout['colonnes']) => setLayout({ colonnes });
  const fieldLabel = (f: string) => t(`integrations.field.${f}`);
  function add() {
    const used = new Set(columns.map((c) => c.champ));
    const champ = fields.find((f) => !used.has(f)) ?? fields[0]!;
    setColumns([...columns, { champ, nom: fieldLabel(champ) }]);
  }
  return (
    <fieldset className="ui-fieldset">
      <legend>{t('integrations.columns')}</legend>
      <ol className="integration-columns">
        {columns.map((c, i) => {
          const n = i + 1;
          const problem = error?.field === 'colonnes' && error.index === i ? error.reason : null;
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: a column is its place; two may show one field
            <li key={i} className="integration-columns__row">
              <Select
                label={t('integrations.column.field', { n })}
                options={fields.map((f) => ({ id: f, label: fieldLabel(f) }))}
                value={c.champ}
                onChange={(k) =>
                  setColumns(columns.map((x, j) => (j === i ? { ...x, champ: k as typeof c.champ } : x)))
                }
              />
              <TextField
                label={t('integrations.column.name', { n })}
                value={c.nom}
                onChange={(v) => setColumns(columns.map((x, j) => (j === i ? { ...x, nom: v } : x)))}
                isInvalid={problem !== null}
                errorMessage={problem ? t(`integrations.error.column.${problem}`) : undefined}
              />
              <div className="integration-columns__buttons">
                <Button
                  aria-label={t('integrations.column.upLabel', { n })}
                  isDisabled={i === 0}
                  onPress={() => setColumns(moved(columns, i, i - 1))}
                >
                  {t('integrations.column.up')}
                </Button>
                <Button
                  aria-label={t('integrations.column.downLabel', { n })}
                  isDisabled={i === columns.length - 1}
                  onPress={() => setColumns(moved(columns, i, i + 1))}
                >
                  {t('integrations.column.down')}
                </Button>
                <Button
                  aria-label={t('integrations.column.removeLabel', { n })}
                  isDisabled={columns.length === 1}
                  onPress={() => setColumns(columns.filter((_, j) => j !== i))}
                >
                  {t('integrations.column.remove')}
                </Button>
              </div>
            </li>
          );
        })}
      </ol>
      <div className="ui-buttons">
        <Button isDisabled={columns.length >= 30} onPress={add}>
          {t('integrations.column.add')}
        </Button>
      </div>
    </fieldset>
  );
}

/** The file's first lines as the server computes them for the layout being edited. */
function Preview({
  userId,
  draft,
  onError,
}: {
  userId: number;
  draft: Draft;
  onError: (e: ItemError | null) => void;
}) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const [preview, setPreview] = useState<IntegrationPreview | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function show() {
    setBusy(true);
    setRefusal(null);
    onError(null);
    try {
      setPreview(
        await previewIntegration(userId, {
          partenaire: draft.partenaire,
          sites: draft.sites,
          mise: draft.mise,
        }),
      );
    } catch (e) {
      const item = e instanceof ApiFailure && e.code === 'InvalidField' ? itemError(e.details) : null;
      onError(item);
      setPreview(null);
      setRefusal(
        item
          ? t(`integrations.error.column.${item.reason}`)
          : t(
              e instanceof ApiFailure && e.code === 'Network Error'
                ? 'error.Network Error'
                : 'app.unexpectedError',
            ),
      );
    } finally {
      setBusy(false);
    }
  }
  return (
    <section className="integration-preview" aria-labelledby="integration-preview-heading">
      <h3 id="integration-preview-heading">{t('integrations.preview')}</h3>
      <div className="ui-buttons">
        <Button isDisabled={busy} onPress={() => void show()}>
          {t('integrations.preview.show')}
        </Button>
      </div>
      <FormRefusal text={refusal} />
      {preview ? (
        preview.siteId === null ? (
          <p className="ui-muted">{t('integrations.preview.noSite')}</p>
        ) : (
          <>
            <p className="ui-muted">
              {t('integrations.preview.caption', {
                fichier: preview.fichier,
                jour: preview.dateFiscale ?? '',
                lignes: preview.totalLignes,
              })}
            </p>
            {preview.lignes.length > 0 ? (
              <section
                className="integration-preview__file"
                {...{ role: 'region', 'aria-label': t('integrations.preview.file'), tabIndex: 0 }}
              >
                <pre>{preview.lignes.join('\n')}</pre>
              </section>
            ) : (
              <p className="ui-muted">{t('integrations.preview.empty')}</p>
            )}
          </>
        )
      ) : null}
    </section>
  );
}

/** The file layout: columns, CSV options, file name, preview. */
export function LayoutFields({
  userId,
  draft,
  setLayout,
  error,
  onError,
}: {
  userId: number;
  draft: Draft;
  setLayout: (patch: Partial<Layout>) => void;
  error: ItemError | null;
  onError: (e: ItemError | null) => void;
}) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  return (
    <>
      <ColumnList draft={draft} setLayout={setLayout} error={error} />
      <Select
        label={t('integrations.separator')}
        options={SEPARATORS.map((s) => ({
          id: s,
          label: s === '\t' ? t('integrations.separator.tab') : s,
        }))}
        value={draft.mise.separateur}
        onChange={(k) => setLayout({ separateur: k as Layout['separateur'] })}
      />
      <Select
        label={t('integrations.encoding')}
        options={ENCODINGS.map((e) => ({ id: e, label: e }))}
        value={draft.mise.encodage}
        onChange={(k) => setLayout({ encodage: k as Layout['encodage'] })}
      />
      <Select
        label={t('integrations.dateFormat')}
        options={DATE_FORMATS.map((f) => ({ id: f, label: f }))}
        value={draft.mise.formatDate}
        onChange={(k) => setLayout({ formatDate: k as Layout['formatDate'] })}
      />
      <Checkbox isSelected={draft.mise.virguleDecimale} onChange={(v) => setLayout({ virguleDecimale: v })}>
        {t('integrations.decimalComma')}
      </Checkbox>
      <Checkbox isSelected={draft.mise.entete} onChange={(v) => setLayout({ entete: v })}>
        {t('integrations.header')}
      </Checkbox>
      <TextField
        label={t('integrations.fileName')}
        description={t('integrations.fileName.help')}
        value={draft.mise.nomFichier}
        onChange={(v) => setLayout({ nomFichier: v })}
      />
      <Preview userId={userId} draft={draft} onError={onError} />
    </>
  );
}
