/**
 * The "Report" card of /rapports: the report class, its variant and, when the class offers them,
 * the operation (SPEC.md §3: VENTE by default), a sort column, a grouping and a filter with the
 * values it keeps (SPEC.md §2).
 */
import { useIntl } from 'react-intl';
import { OPERATIONS } from '../../../../contract/reports.ts';
import { Button } from '../../../ui/button.tsx';
import { Card, CardTitle } from '../../../ui/card.tsx';
import { Checkbox } from '../../../ui/checkbox.tsx';
import { Select } from '../../../ui/select.tsx';
import { selection } from '../../../selection/selection-state.ts';
import type { ReportClassChoice, ReportShapingChoice } from '../use-report-choice.ts';

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

/** The report's class choice, its shaping choice, and what to do when another class is chosen. */
interface ReportChoiceProps {
  report: ReportClassChoice;
  shaping: ReportShapingChoice;
  onClassChange: () => void;
}

/**
 * The card with the report list (a message while it loads, a retry button when it failed) and the
 * chosen report's fields; `onClassChange` is called when another class is chosen.
 */
export function ReportChoiceCard({ report, shaping, onClassChange }: ReportChoiceProps) {
  const intl = useIntl();
  const { metrics, editions } = report;
  return (
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
        <ReportFields report={report} shaping={shaping} onClassChange={onClassChange} />
      )}
    </Card>
  );
}

/** Class and variant of the report, then its sort, grouping and filter. */
function ReportFields({ report, shaping, onClassChange }: ReportChoiceProps) {
  const intl = useIntl();
  const { editions, edition, variant } = report;
  return (
    <div className="rep-report-choice">
      <Select
        label={intl.formatMessage({ id: 'reports.reportClass' })}
        options={editions.map((e) => ({ id: e.className, label: e.localisedTitle }))}
        value={edition?.className ?? null}
        onChange={(key) => {
          selection.report.className = String(key);
          onClassChange();
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
      {edition && shaping.operations.length > 1 ? (
        <Select
          label={intl.formatMessage({ id: 'reports.operation' })}
          options={shaping.operations.map((o) => ({ id: o.value, label: o.label }))}
          value={shaping.operation}
          onChange={(key) => {
            const operation = OPERATIONS.find((o) => o === key);
            if (operation) selection.operation = operation;
            onClassChange();
          }}
        />
      ) : null}
      {edition ? <ShapingFields shaping={shaping} /> : null}
    </div>
  );
}

/** Sort (with its direction), grouping and filter, each shown when the class offers it. */
function ShapingFields({ shaping: s }: { shaping: ReportShapingChoice }) {
  const intl = useIntl();
  return (
    <>
      {s.tris.length > 0 ? (
        <div className="rep-shaping">
          <OptionalChoice
            label={intl.formatMessage({ id: 'reports.sortBy' })}
            none={intl.formatMessage({ id: 'reports.sortNone' })}
            choices={s.tris}
            value={s.sortKey}
            onChange={(value) => s.shape({ sortKey: value })}
          />
          {s.sortKey ? (
            <Checkbox isSelected={s.shaping.descending} onChange={(descending) => s.shape({ descending })}>
              {intl.formatMessage({ id: 'reports.sortDescending' })}
            </Checkbox>
          ) : null}
        </div>
      ) : null}
      {s.regroupements.length > 0 ? (
        <OptionalChoice
          label={intl.formatMessage({ id: 'reports.groupBy' })}
          none={intl.formatMessage({ id: 'reports.groupNone' })}
          choices={s.regroupements}
          value={s.groupBy}
          onChange={(value) => s.shape({ groupBy: value })}
        />
      ) : null}
      {s.filtres.length > 0 ? (
        <div className="rep-filter">
          <OptionalChoice
            label={intl.formatMessage({ id: 'reports.filterBy' })}
            none={intl.formatMessage({ id: 'reports.filterNone' })}
            choices={s.filtres}
            value={s.filtre}
            onChange={(value) => s.shape({ filtre: value, filterValues: [] })}
          />
          {s.filtre === null ? null : <FilterValues shaping={s} />}
        </div>
      ) : null}
    </>
  );
}

/**
 * The values the chosen filter keeps, as checkboxes; in their place, why there are none to pick
 * yet (no valid period, loading, failed, none in the period).
 */
function FilterValues({ shaping: s }: { shaping: ReportShapingChoice }) {
  const intl = useIntl();
  if (!s.periodOk)
    return <p className="rep-muted">{intl.formatMessage({ id: 'reports.filterNeedsPeriod' })}</p>;
  if (s.groupements.isPending) {
    return <p className="rep-muted">{intl.formatMessage({ id: 'reports.filterLoading' })}</p>;
  }
  if (s.groupements.isError) {
    return <p className="rep-muted">{intl.formatMessage({ id: 'reports.filterFailed' })}</p>;
  }
  if (s.filterOptions.length === 0) {
    return <p className="rep-muted">{intl.formatMessage({ id: 'reports.filterEmpty' })}</p>;
  }
  const kept = s.shaping.filterValues;
  return (
    <fieldset className="rep-filter__values">
      <legend className="rep-muted">{intl.formatMessage({ id: 'reports.filterKeep' })}</legend>
      {s.filterOptions.map((g) => (
        <Checkbox
          key={g.value}
          isSelected={kept.includes(g.value)}
          onChange={(on) =>
            s.shape({ filterValues: on ? [...kept, g.value] : kept.filter((v) => v !== g.value) })
          }
        >
          {g.label}
        </Checkbox>
      ))}
    </fieldset>
  );
}
