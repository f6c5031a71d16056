/**
 * /rapports (SPEC.md §2): choose a report class (bo/rapport/metrics), sites and a period, a format
 * (PDF, CSV, XLSX), optionally a sort column, a grouping and a filter on product family, VAT rate
 * or payment method that the class offers (bo/getResultsChoices; values from bo/getGroupements),
 * then either download the file with a visible progress bar or show the dataset
 * on screen (format=JSON). Errors arrive translated through the notification area (SPEC.md §8).
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useIntl } from 'react-intl';
import { Radio, RadioGroup } from 'react-aria-components/RadioGroup';
import { Label } from 'react-aria-components/Label';
import { useSnapshot } from 'valtio';
import type { Dataset, ReportClassInfo, ReportVariant } from '../../../../contract/reports.ts';
import { formatDate } from '../../../lib/format.ts';
import { ApiFailure, download, type SearchParams } from '../../../lib/http.ts';
import { useLanguage } from '../../../lib/i18n.tsx';
import { notify, notifyFailure } from '../../../lib/notifications.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { session } from '../../../lib/session.ts';
import { Button } from '../../../ui/button.tsx';
import { Card, CardTitle } from '../../../ui/card.tsx';
import { Checkbox } from '../../../ui/checkbox.tsx';
import { ProgressBar } from '../../../ui/progress-bar.tsx';
import { Select } from '../../../ui/select.tsx';
import { FavouritesBar } from '../../favourites/components/favourites-bar.tsx';
import { describeFilterValue } from '../../favourites/favourite-summary.ts';
import { SelectionPanel } from '../../../selection/components/selection-panel.tsx';
import { resolvePeriodChoice, validateHours } from '../../../selection/period.ts';
import {
  DOWNLOAD_FORMATS,
  type DownloadFormat,
  NO_SHAPING,
  type ReportShaping,
  selection,
} from '../../../selection/selection-state.ts';
import { useSiteScope } from '../../../selection/use-reference-data.ts';
import { reportQueries } from '../report-queries.ts';
import { buildReportParams, precheckReport } from '../report-request.ts';
import { saveFile } from '../save-file.ts';
import { DatasetTable, DatasetTotals } from './dataset-table.tsx';
import { ReportChart } from './report-chart.tsx';
import './reports.css';

function isDownloadFormat(value: string): value is DownloadFormat {
  return (DOWNLOAD_FORMATS as readonly string[]).includes(value);
}

/**
 * Dimensions offered as filters on this screen, when the class offers them: what the selection
 * pickers above do not already choose (sites, terminals, sellers, period).
 */
const FILTER_DIMENSIONS = ['FAMILLE', 'TVA', 'PAIEMENT'] as const;
/** Select key of "no sort" / "no grouping" / "no filter" (react-aria keys cannot be empty). */
const NONE = '__none';

/**
 * A choice among the report class's columns that may be left unset (sort, grouping, filter): the
 * `none` entry first, then `choices`; `onChange` gets the column's value, or null for none.
 */
function OptionalChoice(props: {
  label: string;
  none: string;
  choices: readonly { value: string; label: string }[];
  value: string | null;
  onChange: (value: string | null) => void;
}) {
  return (
    <Select
      label={props.label}
      options={[
        { id: NONE, label: props.none },
        ...props.choices.map((c) => ({ id: c.value, label: c.label })),
      ]}
      value={props.value ?? NONE}
      onChange={(key) => props.onChange(key === NONE ? null : String(key))}
    />
  );
}

export function ReportsPage() {
  const intl = useIntl();
  const [language] = useLanguage();
  const { user } = useSnapshot(session);
  const sel = useSnapshot(selection);
  const scope = useSiteScope();
  const userId = user?.id ?? 0;
  const metrics = useQuery({ ...reportQueries.metrics(userId, language), enabled: user !== null });
  const editions = metrics.data ?? [];
  // SPEC.md §8 ErrorGettingAllReport: the list of reports could not be loaded (a lost network
  // says so in its own words).
  useEffect(() => {
    if (metrics.errorUpdatedAt === 0) return;
    const e = metrics.error;
    if (e instanceof ApiFailure && e.code === 'Network Error') notifyFailure(e);
    else notify.error('ErrorGettingAllReport');
  }, [metrics.errorUpdatedAt, metrics.error]);
  const edition: ReportClassInfo | undefined =
    editions.find((e) => e.className === sel.report.className) ?? editions[0];
  const formats = DOWNLOAD_FORMATS.filter((f) => !edition || edition.formats.includes(f));
  const format: DownloadFormat = formats.includes(sel.report.format)
    ? sel.report.format
    : (formats[0] ?? 'PDF');
  const variant: ReportVariant =
    edition && !edition.variants.includes(sel.report.typeRapport)
      ? (edition.variants[0] ?? 'Daily')
      : sel.report.typeRapport;

  // What the chosen class can be sorted and grouped by (bo/getResultsChoices).
  const choices = useQuery({
    ...reportQueries.choices(userId, edition?.className ?? '', language),
    enabled: user !== null && edition !== undefined,
  });
  // In the selection store, not in this component: a favourite saves and restores them.
  const shaping = sel.shaping.className === (edition?.className ?? null) ? sel.shaping : NO_SHAPING;
  const tris = choices.data?.tris ?? [];
  const regroupements = choices.data?.regroupements ?? [];
  const sortKey = tris.some((c) => c.value === shaping.sortKey) ? shaping.sortKey : null;
  const groupBy = regroupements.some((c) => c.value === shaping.groupBy) ? shaping.groupBy : null;
  const filtres = (choices.data?.filtres ?? []).filter((c) =>
    (FILTER_DIMENSIONS as readonly string[]).includes(c.value),
  );
  const filtre = filtres.some((c) => c.value === shaping.filtre) ? shaping.filtre : null;
  // The values to pick from: those present in the chosen period's data.
  const periodChoice = resolvePeriodChoice(sel.period);
  const groupements = useQuery({
    ...reportQueries.groupements(
      userId,
      edition?.className ?? '',
      filtre ?? '',
      periodChoice.ok ? periodChoice.range : { dateDebut: '', dateFin: '' },
      language,
    ),
    enabled: user !== null && edition !== undefined && filtre !== null && periodChoice.ok,
  });
  // Values kept (by a favourite, or before the period changed) that the period does not have:
  // listed, still ticked, so the user sees why the report may come back empty and can untick them.
  const presentValues = groupements.data?.groupements ?? [];
  const filterOptions = [
    ...presentValues,
    ...shaping.filterValues
      .filter((v) => !presentValues.some((g) => g.value === v))
      .map((v) => ({
        value: v,
        label: intl.formatMessage(
          { id: 'reports.filterAbsent' },
          { value: describeFilterValue(intl, filtre ?? '', v) },
        ),
      })),
  ];
  const shape = (change: Partial<ReportShaping>) => {
    selection.shaping = {
      ...shaping,
      filterValues: [...shaping.filterValues],
      ...change,
      className: edition?.className ?? null,
    };
    setDataset(null);
  };

  const [progress, setProgress] = useState<number | null>(null);
  const [downloading, setDownloading] = useState(false);
  const [previewing, setPreviewing] = useState(false);
  const [dataset, setDataset] = useState<Dataset | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const previewHeading = useRef<HTMLHeadingElement>(null);
  // A new on-screen result gets the focus: on a phone it is below the fold, and a screen reader
  // user hears its title.
  useEffect(() => {
    if (dataset) previewHeading.current?.focus();
  }, [dataset]);

  /** Request parameters for the current choice, or null after telling the user what is missing. */
  function prepare(): SearchParams | null {
    setFormError(null);
    const period = resolvePeriodChoice(selection.period);
    if (!period.ok) {
      setFormError(intl.formatMessage({ id: 'reports.fixPeriod' }));
      return null;
    }
    if (
      selection.trancheHoraire &&
      Object.keys(validateHours(selection.heureDebut, selection.heureFin)).length > 0
    ) {
      setFormError(intl.formatMessage({ id: 'reports.fixHours' }));
      return null;
    }
    const failed = precheckReport({
      className: edition?.className ?? null,
      siteIds: scope.effective,
      range: period.range,
      maxDays: edition?.maxDays ?? null,
    });
    if (failed || !edition || !user) {
      notify.error(failed?.code ?? 'NoReportInState', failed?.values);
      return null;
    }
    return buildReportParams({
      userId: user.id,
      className: edition.className,
      typeRapport: variant,
      format,
      language,
      range: period.range,
      siteIds: scope.effective,
      terminalKeys: selection.terminals,
      sellerKeys: selection.sellers,
      trancheHoraire: selection.trancheHoraire,
      heureDebut: selection.heureDebut,
      heureFin: selection.heureFin,
      sortKey,
      sortDescending: shaping.descending,
      groupBy,
      filter: filtre ? { filtre, values: shaping.filterValues } : null,
    });
  }

  async function generate() {
    const params = prepare();
    if (!params) return;
    setProgress(null);
    setDownloading(true);
    try {
      const { blob, filename } = await download('bo/getReport', params, setProgress);
      saveFile(blob, filename);
      notify.success('exportOk');
    } catch (e) {
      notifyFailure(e);
    } finally {
      setDownloading(false);
    }
  }

  async function preview() {
    const params = prepare();
    if (!params) return;
    setPreviewing(true);
    try {
      // Always asks the server again: "show" after a change of data must show the new figures.
      await queryClient.invalidateQueries({ queryKey: reportQueries.preview(params).queryKey });
      setDataset(await queryClient.fetchQuery(reportQueries.preview(params)));
    } catch (e) {
      setDataset(null);
      notifyFailure(e);
    } finally {
      setPreviewing(false);
    }
  }

  const busy = downloading || previewing;
  return (
    <div className="rep-page">
      <h1 className="rep-title">{intl.formatMessage({ id: 'reports.title' })}</h1>
      <Card labelledBy="rep-report-heading">
        <CardTitle id="rep-report-heading">{intl.formatMessage({ id: 'reports.report' })}</CardTitle>
        {metrics.isPending ? (
          <p className="rep-muted">{intl.formatMessage({ id: 'reports.loadingList' })}</p>
        ) : metrics.isError ? (
          <div className="rep-error" role="alert">
            <p>{intl.formatMessage({ id: 'reports.listFailed' })}</p>
            <Button onPress={() => void metrics.refetch()}>
              {intl.formatMessage({ id: 'reports.retry' })}
            </Button>
          </div>
        ) : editions.length === 0 ? (
          <p className="rep-muted">{intl.formatMessage({ id: 'reports.noReport' })}</p>
        ) : (
          <div className="rep-report-choice">
            <Select
              label={intl.formatMessage({ id: 'reports.reportClass' })}
              options={editions.map((e) => ({ id: e.className, label: e.localisedTitle }))}
              value={edition?.className ?? null}
              onChange={(key) => {
                selection.report.className = String(key);
                setDataset(null);
              }}
            />
            {edition && edition.variants.length > 1 ? (
              <Select
                label={intl.formatMessage({ id: 'reports.variant' })}
                options={edition.variants.map((v) => ({
                  id: v,
                  label: intl.formatMessage({ id: `report.variant.${v}` }),
                }))}
                value={variant}
                onChange={(key) => {
                  const v = edition.variants.find((x) => x === key);
                  if (v) selection.report.typeRapport = v;
                }}
              />
            ) : null}
            {edition && tris.length > 0 ? (
              <div className="rep-shaping">
                <OptionalChoice
                  label={intl.formatMessage({ id: 'reports.sortBy' })}
                  none={intl.formatMessage({ id: 'reports.sortNone' })}
                  choices={tris}
                  value={sortKey}
                  onChange={(value) => shape({ sortKey: value })}
                />
                {sortKey ? (
                  <Checkbox isSelected={shaping.descending} onChange={(descending) => shape({ descending })}>
                    {intl.formatMessage({ id: 'reports.sortDescending' })}
                  </Checkbox>
                ) : null}
              </div>
            ) : null}
            {edition && regroupements.length > 0 ? (
              <OptionalChoice
                label={intl.formatMessage({ id: 'reports.groupBy' })}
                none={intl.formatMessage({ id: 'reports.groupNone' })}
                choices={regroupements}
                value={groupBy}
                onChange={(value) => shape({ groupBy: value })}
              />
            ) : null}
            {edition && filtres.length > 0 ? (
              <div className="rep-filter">
                <OptionalChoice
                  label={intl.formatMessage({ id: 'reports.filterBy' })}
                  none={intl.formatMessage({ id: 'reports.filterNone' })}
                  choices={filtres}
                  value={filtre}
                  onChange={(value) => shape({ filtre: value, filterValues: [] })}
                />
                {filtre === null ? null : !periodChoice.ok ? (
                  <p className="rep-muted">{intl.formatMessage({ id: 'reports.filterNeedsPeriod' })}</p>
                ) : groupements.isPending ? (
                  <p className="rep-muted">{intl.formatMessage({ id: 'reports.filterLoading' })}</p>
                ) : groupements.isError ? (
                  <p className="rep-muted">{intl.formatMessage({ id: 'reports.filterFailed' })}</p>
                ) : filterOptions.length === 0 ? (
                  <p className="rep-muted">{intl.formatMessage({ id: 'reports.filterEmpty' })}</p>
                ) : (
                  <fieldset className="rep-filter__values">
                    <legend className="rep-muted">{intl.formatMessage({ id: 'reports.filterKeep' })}</legend>
                    {filterOptions.map((g) => (
                      <Checkbox
                        key={g.value}
                        isSelected={shaping.filterValues.includes(g.value)}
                        onChange={(on) =>
                          shape({
                            filterValues: on
                              ? [...shaping.filterValues, g.value]
                              : shaping.filterValues.filter((v) => v !== g.value),
                          })
                        }
                      >
                        {g.label}
                      </Checkbox>
                    ))}
                  </fieldset>
                )}
              </div>
            ) : null}
          </div>
        )}
      </Card>

      <FavouritesBar
        chosen={
          edition
            ? {
                className: edition.className,
                localisedTitle: edition.localisedTitle,
                typeRapport: variant,
                format,
              }
            : null
        }
        onApplied={() => setDataset(null)}
      />

      <SelectionPanel />

      <Card className="rep-actions" labelledBy="rep-output-heading">
        <CardTitle id="rep-output-heading">{intl.formatMessage({ id: 'reports.output' })}</CardTitle>
        <RadioGroup
          className="rep-formats"
          orientation="horizontal"
          value={format}
          onChange={(v) => {
            if (isDownloadFormat(v)) selection.report.format = v;
          }}
        >
          <Label className="ui-field__label">{intl.formatMessage({ id: 'reports.format' })}</Label>
          <div className="rep-formats__options">
            {formats.map((f) => (
              <Radio key={f} value={f} className="rep-format">
                {intl.formatMessage({ id: `reports.format.${f}` })}
              </Radio>
            ))}
          </div>
        </RadioGroup>
        {formError ? (
          <p className="rep-form-error" role="alert">
            {formError}
          </p>
        ) : null}
        <div className="rep-buttons">
          <Button variant="primary" onPress={() => void generate()} isDisabled={busy || !edition}>
            {intl.formatMessage({ id: 'reports.generate' })}
          </Button>
          <Button
            onPress={() => void preview()}
            isDisabled={busy || !edition || !edition.formats.includes('JSON')}
          >
            {intl.formatMessage({ id: 'reports.show' })}
          </Button>
        </div>
        {downloading ? (
          <ProgressBar
            className="rep-progress"
            label={intl.formatMessage({ id: 'reports.downloading' }, { format })}
            value={progress}
          />
        ) : null}
        {previewing ? (
          <ProgressBar
            className="rep-progress"
            label={intl.formatMessage({ id: 'reports.computing' })}
            value={null}
          />
        ) : null}
      </Card>

      {dataset ? (
        <Card className="rep-preview" labelledBy="rep-preview-heading">
          <CardTitle id="rep-preview-heading" focusRef={previewHeading}>
            {dataset.title}
          </CardTitle>
          <p className="rep-muted">
            {intl.formatMessage(
              { id: 'reports.preview.caption' },
              {
                start: formatDate(dataset.dateDebut),
                end: formatDate(dataset.dateFin),
                sites: dataset.sites.length,
              },
            )}
          </p>
          <DatasetTotals dataset={dataset} />
          {dataset.variant === 'Graph' ? <ReportChart dataset={dataset} /> : null}
          <DatasetTable dataset={dataset} />
        </Card>
      ) : null}
    </div>
  );
}
