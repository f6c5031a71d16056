/**
 * The explorer's four choices: measure, first and second dimension (or none), comparison period.
 * Options that do not go with the rest of the choice are greyed out (bi-choices.ts).
 */
import { useIntl } from 'react-intl';
import {
  BI_COMPARISONS,
  BI_DIMENSIONS,
  BI_MEASURES,
  type BiComparison,
  type BiDimension,
  type BiMeasure,
} from '../../../../contract/bi.ts';
import { type ExploreChoice, unavailableDimensions, unavailableMeasures } from '../bi-choices.ts';
import { Select } from '../../../ui/select.tsx';

/** Option id of "no dimension". */
const NONE = 'NONE';

export function BiControls({
  choice,
  onChange,
}: {
  choice: ExploreChoice;
  onChange: (choice: ExploreChoice) => void;
}) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const unavailable = t('bi.unavailable');
  const dimensionOptions = [
    { id: NONE, label: t('bi.dimension.none') },
    ...BI_DIMENSIONS.map((d) => ({ id: d, label: t(`bi.dimension.${d}`) })),
  ];
  const asDimension = (v: string) => (v === NONE ? null : (v as BiDimension));
  return (
    <div className="bi-controls">
      <Select
        label={t('bi.measure')}
        disabledNote={unavailable}
        disabledKeys={unavailableMeasures(choice)}
        value={choice.measure}
        options={BI_MEASURES.map((m) => ({ id: m, label: t(`bi.measure.${m}`) }))}
        onChange={(v) => onChange({ ...choice, measure: v as BiMeasure })}
      />
      <Select
        label={t('bi.dimension1')}
        disabledNote={unavailable}
        disabledKeys={unavailableDimensions(choice, 1)}
        value={choice.dimension1 ?? NONE}
        options={dimensionOptions}
        onChange={(v) => onChange({ ...choice, dimension1: asDimension(String(v)) })}
      />
      <Select
        label={t('bi.dimension2')}
        disabledNote={unavailable}
        disabledKeys={unavailableDimensions(choice, 2)}
        value={choice.dimension2 ?? NONE}
        options={dimensionOptions}
        onChange={(v) => onChange({ ...choice, dimension2: asDimension(String(v)) })}
      />
      <Select
        label={t('bi.comparison')}
        value={choice.comparison}
        options={BI_COMPARISONS.map((c) => ({ id: c, label: t(`bi.comparison.${c}`) }))}
        onChange={(v) => onChange({ ...choice, comparison: v as BiComparison })}
      />
    </div>
  );
}
