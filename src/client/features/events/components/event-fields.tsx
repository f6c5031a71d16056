/**
 * The event form's fields that ui/ does not offer with a refusal at the field: a required
 * choice (react-aria Select with `isRequired`, `isInvalid` and its FieldError) and the sites as a
 * labelled checkbox group (its days are ui/date-field.tsx's, with the form's refusal). Each shows its translated
 * error linked to the control, so the form (ui/form.tsx) can focus the first refused one.
 */
import type { ReactNode } from 'react';
import type { Key } from 'react-aria-components';
import { Button } from 'react-aria-components/Button';
import { CheckboxGroup } from 'react-aria-components/CheckboxGroup';
import { FieldError } from 'react-aria-components/FieldError';
import { Label } from 'react-aria-components/Label';
import { ListBox, ListBoxItem } from 'react-aria-components/ListBox';
import { Popover } from 'react-aria-components/Popover';
import { Select, SelectValue } from 'react-aria-components/Select';
import { Text } from 'react-aria-components/Text';
import { Checkbox } from '../../../ui/checkbox.tsx';

/** One choice of a {@link ChoiceField}. */
export interface Choice {
  id: string;
  label: string;
}

/** A required single choice from a short list; `error` (translated) shows at the field. */
export function ChoiceField(props: {
  label: ReactNode;
  choices: readonly Choice[];
  value: string | null;
  onChange: (id: string) => void;
  error: string | undefined;
  placeholder: string;
}) {
  return (
    <Select
      className="ui-field ui-select"
      value={props.value}
      onChange={(key: Key | null) => {
        if (key !== null) props.onChange(String(key));
      }}
      placeholder={props.placeholder}
      isRequired
      isInvalid={props.error !== undefined}
      validationBehavior="aria"
    >
      <Label className="ui-field__label">{props.label}</Label>
      <Button className="ui-select__button">
        <SelectValue className="ui-select__value" />
        <span aria-hidden="true" className="ui-select__chevron">
          ▾
        </span>
      </Button>
      <FieldError className="ui-field__error">{props.error}</FieldError>
      <Popover className="ui-popover">
        <ListBox className="ui-listbox" items={props.choices}>
          {(c) => (
            <ListBoxItem className="ui-listbox__item" id={c.id} textValue={c.label}>
              {c.label}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </Select>
  );
}

/** The sites an event affects: one checkbox per site of the user's scope; at least one required. */
export function SitesField(props: {
  label: ReactNode;
  description: ReactNode;
  sites: readonly Choice[];
  value: readonly string[];
  onChange: (ids: string[]) => void;
  error: string | undefined;
}) {
  return (
    <CheckboxGroup
      className="ev-sites"
      value={[...props.value]}
      onChange={props.onChange}
      isRequired
      isInvalid={props.error !== undefined}
      validationBehavior="aria"
    >
      <Label className="ui-field__label">{props.label}</Label>
      <Text slot="description" className="ui-field__description">
        {props.description}
      </Text>
      <div className="ev-sites__options">
        {props.sites.map((s) => (
          <Checkbox key={s.id} value={s.id}>
            {s.label}
          </Checkbox>
        ))}
      </div>
      <FieldError className="ui-field__error">{props.error}</FieldError>
    </CheckboxGroup>
  );
}
