/**
 * Single choice from a short list (react-aria-components Select): a button that opens a listbox
 * in a popover. For long, searchable lists use ComboBox.
 */
import type { ReactNode } from 'react';
import type { Key } from 'react-aria-components';
import { Button } from 'react-aria-components/Button';
import { Label } from 'react-aria-components/Label';
import { ListBox, ListBoxItem } from 'react-aria-components/ListBox';
import { Popover } from 'react-aria-components/Popover';
import { Select as AriaSelect, SelectValue } from 'react-aria-components/Select';

export interface SelectOption {
  id: Key;
  label: string;
}

export interface SelectProps {
  label: ReactNode;
  options: readonly SelectOption[];
  value: Key | null;
  onChange: (value: Key) => void;
  isDisabled?: boolean;
  placeholder?: string;
  className?: string;
}

export function Select({ label, options, value, onChange, isDisabled, placeholder, className }: SelectProps) {
  return (
    <AriaSelect
      className={['ui-field', 'ui-select', className].filter(Boolean).join(' ')}
      value={value}
      onChange={(key) => {
        if (key !== null) onChange(key);
      }}
      isDisabled={isDisabled}
      placeholder={placeholder}
    >
      <Label className="ui-field__label">{label}</Label>
      <Button className="ui-select__button">
        <SelectValue className="ui-select__value" />
        <span aria-hidden="true" className="ui-select__chevron">
          ▾
        </span>
      </Button>
      <Popover className="ui-popover">
        <ListBox className="ui-listbox" items={options}>
          {(o) => (
            <ListBoxItem className="ui-listbox__item" id={o.id} textValue={o.label}>
              {o.label}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </AriaSelect>
  );
}
