/**
 * Single choice from a short list (react-aria-components Select): a button that opens a listbox
 * in a popover. For long, searchable lists use ComboBox.
 *
 * `disabledKeys` greys out options that exist but cannot be chosen now (the BI explorer's
 * measures no aggregate holds with the chosen dimension): they stay listed, are skipped by the
 * keyboard and cannot be selected, and `disabledNote` is appended to their text so sighted users
 * and screen readers alike learn why.
 */
import type { ReactNode } from 'react';
import type { Key } from 'react-aria-components';
import { Button } from 'react-aria-components/Button';
import { Label } from 'react-aria-components/Label';
import { ListBox, ListBoxItem } from 'react-aria-components/ListBox';
import { Popover } from 'react-aria-components/Popover';
import { Select as AriaSelect, SelectValue } from 'react-aria-components/Select';
import './select.css';

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
  /** Options shown greyed out and not choosable. */
  disabledKeys?: Iterable<Key>;
  /** Appended in brackets to a disabled option's text (e.g. "not available"). */
  disabledNote?: string;
  placeholder?: string;
  className?: string;
}

export function Select({
  label,
  options,
  value,
  onChange,
  isDisabled,
  disabledKeys,
  disabledNote,
  placeholder,
  className,
}: SelectProps) {
  const disabled = new Set<Key>(disabledKeys ?? []);
  const noted = (o: SelectOption) => Boolean(disabledNote) && disabled.has(o.id);
  return (
    <AriaSelect
      className={['ui-field', 'ui-select', className].filter(Boolean).join(' ')}
      value={value}
      onChange={(key) => {
        if (key !== null) onChange(key);
      }}
      isDisabled={isDisabled}
      disabledKeys={disabled}
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
        {/* The note depends on more than the option itself: the listbox's item cache must know. */}
        <ListBox
          className="ui-listbox"
          items={options}
          dependencies={[disabledNote, [...disabled].join('\u0000')]}
        >
          {(o) => (
            <ListBoxItem
              className="ui-listbox__item"
              id={o.id}
              textValue={noted(o) ? `${o.label} (${disabledNote})` : o.label}
            >
              {o.label}
              {/* The space keeps the note apart in the option's accessible name; CSS spaces it visually. */}
              {noted(o) ? ' ' : null}
              {noted(o) ? <span className="ui-listbox__note">({disabledNote})</span> : null}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </AriaSelect>
  );
}
