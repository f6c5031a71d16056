/**
 * A manager code as it is typed in the safe screen's dialogs (the countersignature, the
 * manager's own code): 4 to 6 digits, masked, numeric keypad, required. Its problem is a message
 * id, shown as {@link useProblemText} says.
 */
import type { ReactNode } from 'react';
import { TextField } from '../../../ui/text-field.tsx';
import { useProblemText } from '../../../ui/online-dialog-form.tsx';

export function ManagerCodeField({
  label,
  description,
  value,
  onChange,
  autoComplete,
  problemId,
}: {
  label: ReactNode;
  description?: ReactNode;
  value: string;
  onChange: (code: string) => void;
  /** `off` for another manager's code, `new-password` for one's own new code. */
  autoComplete: 'off' | 'new-password';
  /** Message id of what is wrong with the code, or undefined. */
  problemId: string | undefined;
}) {
  const problemText = useProblemText();
  return (
    <TextField
      label={label}
      description={description}
      value={value}
      onChange={onChange}
      type="password"
      inputMode="numeric"
      autoComplete={autoComplete}
      isRequired
      isInvalid={problemId !== undefined}
      errorMessage={problemText(problemId)}
    />
  );
}
