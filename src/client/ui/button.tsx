/**
 * Button (react-aria-components): keyboard, press and focus handling done right; at least 44 px
 * tall (touch targets, DESIGN.md §8). `variant` picks the look: primary (one main action per
 * screen), secondary (default), quiet (icon-like actions in bars).
 */
import { Button as AriaButton, type ButtonProps as AriaButtonProps } from 'react-aria-components/Button';

export interface ButtonProps extends Omit<AriaButtonProps, 'className'> {
  variant?: 'primary' | 'secondary' | 'quiet';
  className?: string;
}

export function Button({ variant = 'secondary', className, ...props }: ButtonProps) {
  return (
    <AriaButton
      {...props}
      className={['ui-button', `ui-button--${variant}`, className].filter(Boolean).join(' ')}
    />
  );
}
