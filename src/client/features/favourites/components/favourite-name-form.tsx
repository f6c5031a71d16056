/**
 * The name of a favourite, typed in a form (new favourite, save from /rapports, rename). What was
 * typed stays in the field when saving fails; an empty name (SPEC.md §5 "no field may be
 * empty") or the name of another of the user's favourites is refused before any call.
 */
import { type FormEvent, type ReactNode, useState } from 'react';
import { useIntl } from 'react-intl';
import { FAVOURITE_NAME_MAX } from '../../../../contract/favourites.ts';
import { Button } from '../../../ui/button.tsx';
import { TextField } from '../../../ui/text-field.tsx';
import '../../../ui/page.css';

export interface FavouriteNameFormProps {
  /** Name shown at first (rename), empty for a new favourite. */
  initialName?: string;
  /** Label of the submit button. */
  submitLabel: string;
  /** Saves under `name` (trimmed); resolves to true when saved, false to keep the form as it is. */
  onSubmit: (name: string) => Promise<boolean>;
  onCancel?: () => void;
  /** A failure to show under the field (already translated). */
  error?: string | null;
  /** Names already used by the user's other favourites (compared without case or outer spaces). */
  takenNames?: readonly string[];
  /** More actions beside submit and cancel. */
  extraActions?: ReactNode;
  autoFocus?: boolean;
}

export function FavouriteNameForm({
  initialName = '',
  submitLabel,
  onSubmit,
  onCancel,
  error,
  takenNames = [],
  extraActions,
  autoFocus,
}: FavouriteNameFormProps) {
  const intl = useIntl();
  const [name, setName] = useState(initialName);
  const [problem, setProblem] = useState<'required' | 'taken' | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const key = name.trim().toLocaleLowerCase();
    if (key === '') {
      setProblem('required');
      return;
    }
    // Two favourites with one name cannot be told apart in the pickers.
    if (takenNames.some((n) => n.trim().toLocaleLowerCase() === key)) {
      setProblem('taken');
      return;
    }
    setBusy(true);
    try {
      const saved = await onSubmit(name.trim());
      if (saved) setName('');
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="fav-name-form" onSubmit={(e) => void submit(e)} noValidate>
      <TextField
        label={intl.formatMessage({ id: 'favourites.name' })}
        description={intl.formatMessage({ id: 'favourites.name.hint' }, { max: FAVOURITE_NAME_MAX })}
        value={name}
        onChange={(v) => {
          setName(v);
          setProblem(null);
        }}
        maxLength={FAVOURITE_NAME_MAX}
        isRequired
        isInvalid={problem !== null}
        errorMessage={problem ? intl.formatMessage({ id: `favourites.name.${problem}` }) : undefined}
        autoFocus={autoFocus}
        autoComplete="off"
      />
      {error ? (
        <p className="ui-refusal" role="alert">
          {error}
        </p>
      ) : null}
      <div className="ui-buttons">
        <Button type="submit" variant="primary" isDisabled={busy}>
          {submitLabel}
        </Button>
        {extraActions}
        {onCancel ? (
          <Button onPress={onCancel} isDisabled={busy}>
            {intl.formatMessage({ id: 'favourites.cancel' })}
          </Button>
        ) : null}
      </div>
    </form>
  );
}
