/** Checkbox with its label, 44 px tall (react-aria-components Checkbox). */
import type { ReactNode } from 'react';
import {
  Checkbox as AriaCheckbox,
  type CheckboxProps as AriaCheckboxProps,
} from 'react-aria-components/Checkbox';

export interface CheckboxProps extends Omit<AriaCheckboxProps, 'className' | 'children'> {
  children: ReactNode;
  className?: string;
}

export function Checkbox({ children, className, ...props }: CheckboxProps) {
  return (
    <AriaCheckbox {...props} className={['ui-checkbox', className].filter(Boolean).join(' ')}>
      {({ isSelected, isIndeterminate }) => (
        <>
          <span className="ui-checkbox__box" aria-hidden="true">
            {isIndeterminate ? '–' : isSelected ? '✓' : ''}
          </span>
          <span className="ui-checkbox__label">{children}</span>
        </>
      )}
    </AriaCheckbox>
  );
}
