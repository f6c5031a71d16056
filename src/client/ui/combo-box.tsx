/**
 * Searchable single choice (react-aria-components ComboBox): type to filter a long list (sites,
 * sellers), pick with keyboard or touch.
 */
import type { ReactNode } from 'react';
import type { Key } from 'react-aria-components';
import { Button } from 'react-aria-components/Button';
import { ComboBox as AriaComboBox } from 'react-aria-components/ComboBox';
import { Input } from 'react-aria-components/Input';
import { Label } from 'react-aria-components/Label';
import { ListBox, ListBoxItem } from 'react-aria-components/ListBox';
import { Popover } from 'react-aria-components/Popover';
import type { SelectOption } from './select.tsx';

export interface ComboBoxProps {
  label: ReactNode;
  options: readonly SelectOption[];
  value: Key | null;
  onChange: (value: Key | null) => void;
  isDisabled?: boolean;
  placeholder?: string;
  className?: string;
}

export function ComboBox({
  label,
  options,
  value,
  onChange,
  isDisabled,
  placeholder,
  className,
}: ComboBoxProps) {
  return (
    <AriaComboBox
      className={['ui-field', 'ui-combobox', className].filter(Boolean).join(' ')}
      defaultItems={options}
      selectedKey={value}
      onSelectionChange={(key) => onChange(key)}
      isDisabled={isDisabled}
    >
      <Label className="ui-field__label">{label}</Label>
      <div className="ui-combobox__control">
        <Input className="ui-field__input" placeholder={placeholder} />
        <Button className="ui-combobox__button">
          <span aria-hidden="true">▾</span>
        </Button>
      </div>
      <Popover className="ui-popover">
        <ListBox className="ui-listbox">
          {(o: SelectOption) => (
            <ListBoxItem className="ui-listbox__item" id={o.id} textValue={o.label}>
              {o.label}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </AriaComboBox>
  );
}
