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
import { BiChoice } from './bi-choice.tsx';

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
  const dimensionOptions = (slot: 1 | 2) => {
    const off = unavailableDimensions(choice, slot);
    return [
      { id: NONE, label: t('bi.dimension.none') },
      ...BI_DIMENSIONS.map((d) => ({ id: d, label: t(`bi.dimension.${d}`), disabled: off.includes(d) })),
    ];
  };
  const asDimension = (v: string) => (v === NONE ? null : (v as BiDimension));
  const offMeasures = unavailableMeasures(choice);
  return (
    <div className="bi-controls">
      <BiChoice
        label={t('bi.measure')}
        unavailableLabel={unavailable}
        value={choice.measure}
        options={BI_MEASURES.map((m) => ({
          id: m,
          label: t(`bi.measure.${m}`),
          disabled: offMeasures.includes(m),
        }))}
        onChange={(v) => onChange({ ...choice, measure: v as BiMeasure })}
      />
      <BiChoice
        label={t('bi.dimension1')}
        unavailableLabel={unavailable}
        value={choice.dimension1 ?? NONE}
        options={dimensionOptions(1)}
        onChange={(v) => onChange({ ...choice, dimension1: asDimension(v) })}
      />
      <BiChoice
        label={t('bi.dimension2')}
        unavailableLabel={unavailable}
        value={choice.dimension2 ?? NONE}
        options={dimensionOptions(2)}
        onChange={(v) => onChange({ ...choice, dimension2: asDimension(v) })}
      />
      <BiChoice
        label={t('bi.comparison')}
        unavailableLabel={unavailable}
        value={choice.comparison}
        options={BI_COMPARISONS.map((c) => ({ id: c, label: t(`bi.comparison.${c}`) }))}
        onChange={(v) => onChange({ ...choice, comparison: v as BiComparison })}
      />
    </div>
  );
}
