/**
 * Progress bar (react-aria-components ProgressBar): `value` is a fraction 0…1, or `null` while
 * the total is unknown (indeterminate), as `download()` of lib/http reports it.
 */
import type { ReactNode } from 'react';
import { Label } from 'react-aria-components/Label';
import { ProgressBar as AriaProgressBar } from 'react-aria-components/ProgressBar';

export interface ProgressBarProps {
  label: ReactNode;
  value: number | null;
  className?: string;
}

export function ProgressBar({ label, value, className }: ProgressBarProps) {
  const indeterminate = value === null;
  return (
    <AriaProgressBar
      className={['ui-progress', className].filter(Boolean).join(' ')}
      value={indeterminate ? undefined : Math.round(value * 100)}
      isIndeterminate={indeterminate}
    >
      {({ percentage, valueText }) => (
        <>
          <div className="ui-progress__header">
            <Label className="ui-progress__label">{label}</Label>
            {indeterminate ? null : <span className="ui-progress__value">{valueText}</span>}
          </div>
          <div className="ui-progress__track">
            <div
              className={
                indeterminate ? 'ui-progress__fill ui-progress__fill--indeterminate' : 'ui-progress__fill'
              }
              style={indeterminate ? undefined : { width: `${percentage ?? 0}%` }}
            />
          </div>
        </>
      )}
    </AriaProgressBar>
  );
}
