/**
 * A single choice whose options may be greyed out (react-aria-components Select with
 * `disabledKeys`): the explorer shows every measure and dimension and disables those no
 * aggregate holds with the rest of the choice, so the user sees what exists and why it is
 * not offered (the option's text says "not available").
 */
import type { Key } from 'react-aria-components';
import { Button } from 'react-aria-components/Button';
import { Label } from 'react-aria-components/Label';
import { ListBox, ListBoxItem } from 'react-aria-components/ListBox';
import { Popover } from 'react-aria-components/Popover';
import { Select, SelectValue } from 'react-aria-components/Select';

export interface BiChoiceOption {
  id: string;
  label: string;
  disabled?: boolean;
}

export interface BiChoiceProps {
  label: string;
  options: readonly BiChoiceOption[];
  value: string;
  onChange: (value: string) => void;
  /** Appended to a greyed-out option's text for screen readers and sighted users alike. */
  unavailableLabel: string;
}

export function BiChoice({ label, options, value, onChange, unavailableLabel }: BiChoiceProps) {
  return (
    <Select
      className="ui-field ui-select"
      value={value}
      disabledKeys={options.filter((o) => o.disabled).map((o) => o.id)}
      onChange={(key: Key | null) => {
        if (key !== null) onChange(String(key));
      }}
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
            <ListBoxItem
              className="ui-listbox__item bi-choice__item"
              id={o.id}
              textValue={o.disabled ? `${o.label} (${unavailableLabel})` : o.label}
            >
              {o.label}
              {o.disabled ? <span className="bi-choice__unavailable"> ({unavailableLabel})</span> : null}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </Select>
  );
}
