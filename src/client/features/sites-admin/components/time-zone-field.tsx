/**
 * The site's time zone, chosen from the IANA zones this device knows (`Intl.supportedValuesOf`)
 * in a searchable combo box: typing "paris" or "new_y" narrows the list to the zones containing
 * it. Keyboard: type, arrows, Enter; the listbox is announced. The error shows under the field.
 */
import type { ReactNode } from 'react';
import { Button } from 'react-aria-components/Button';
import { ComboBox } from 'react-aria-components/ComboBox';
import { FieldError } from 'react-aria-components/FieldError';
import { Input } from 'react-aria-components/Input';
import { Label } from 'react-aria-components/Label';
import { ListBox, ListBoxItem } from 'react-aria-components/ListBox';
import { Popover } from 'react-aria-components/Popover';
import { Text } from 'react-aria-components/Text';

export interface TimeZoneFieldProps {
  label: ReactNode;
  description?: ReactNode;
  /** The chosen IANA zone, '' when none. */
  value: string;
  onChange: (zone: string) => void;
  zones: readonly string[];
  errorMessage?: string;
  isRequired?: boolean;
}

/** Case-insensitive "contains", with `_` and spaces alike ("new york" finds America/New_York). */
function zoneMatches(zone: string, typed: string): boolean {
  const fold = (t: string) => t.toLowerCase().replaceAll('_', ' ');
  return fold(zone).includes(fold(typed.trim()));
}

/** The time zone combo box of the module comment; `errorMessage` marks it invalid and shows under it. */
export function TimeZoneField({
  label,
  description,
  value,
  onChange,
  zones,
  errorMessage,
  isRequired,
}: TimeZoneFieldProps) {
  const items = zones.map((z) => ({ id: z }));
  return (
    <ComboBox
      className="ui-field ui-combobox"
      defaultItems={items}
      selectedKey={value === '' ? null : value}
      onSelectionChange={(key) => onChange(key === null ? '' : String(key))}
      defaultFilter={zoneMatches}
      isRequired={isRequired}
      isInvalid={errorMessage !== undefined}
    >
      <Label className="ui-field__label">{label}</Label>
      <div className="ui-combobox__control">
        <Input className="ui-field__input" />
        <Button className="ui-combobox__button">
          <span aria-hidden="true">▾</span>
        </Button>
      </div>
      {description ? (
        <Text slot="description" className="ui-field__description">
          {description}
        </Text>
      ) : null}
      <FieldError className="ui-field__error">{errorMessage}</FieldError>
      <Popover className="ui-popover">
        <ListBox className="ui-listbox">
          {(item: { id: string }) => (
            <ListBoxItem className="ui-listbox__item" id={item.id} textValue={item.id}>
              {item.id}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </ComboBox>
  );
}
