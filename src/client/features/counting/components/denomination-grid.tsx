/**
 * Notes and coins by denomination (issue #3 point 1): one row per euro denomination with big
 * − / + buttons and a numeric field (touch targets ≥ 44 px, a numeric pad on phones), and the
 * row's total. Used by the cash count and the safe count.
 */
import { useIntl } from 'react-intl';
import { DENOMINATIONS_CENTS, NOTE_DENOMINATIONS_CENTS } from '../../../../contract/counting.ts';
import { formatMoney } from '../../../lib/format.ts';
import { Button } from '../../../ui/button.tsx';

export interface DenominationGridProps {
  /** Quantity per denomination (cents → count). */
  quantities: Readonly<Record<number, number>>;
  onChange: (denominationCents: number, quantity: number) => void;
  currency: string;
  /** Prefix of the inputs' test ids (`cash`, `safe`). */
  idPrefix: string;
}

const NOTES = new Set<number>(NOTE_DENOMINATIONS_CENTS);

export function DenominationGrid({ quantities, onChange, currency, idPrefix }: DenominationGridProps) {
  const intl = useIntl();
  const money = (cents: number) => formatMoney(cents, currency, intl.locale);
  return (
    <div className="denomination-grid">
      {DENOMINATIONS_CENTS.map((d) => {
        const q = quantities[d] ?? 0;
        const label = intl.formatMessage(
          { id: NOTES.has(d) ? 'counting.note' : 'counting.coin' },
          { value: money(d) },
        );
        const inputId = `${idPrefix}-denomination-${d}`;
        return (
          <div className="denomination-row" key={d}>
            <label className="denomination-row__label" htmlFor={inputId}>
              {label}
            </label>
            <Button
              className="denomination-row__step"
              aria-label={intl.formatMessage({ id: 'counting.less' }, { label })}
              isDisabled={q === 0}
              onPress={() => onChange(d, Math.max(0, q - 1))}
            >
              −
            </Button>
            <input
              id={inputId}
              data-testid={inputId}
              className="denomination-row__input ui-field__input"
              type="text"
              inputMode="numeric"
              pattern="[0-9]*"
              autoComplete="off"
              value={q === 0 ? '' : String(q)}
              placeholder="0"
              onChange={(e) => {
                const digits = e.target.value.replace(/\D/g, '').slice(0, 7);
                onChange(d, digits === '' ? 0 : Number(digits));
              }}
            />
            <Button
              className="denomination-row__step"
              aria-label={intl.formatMessage({ id: 'counting.more' }, { label })}
              onPress={() => onChange(d, q + 1)}
            >
              +
            </Button>
            <span className="denomination-row__total" aria-live="off">
              {q > 0 ? money(q * d) : ''}
            </span>
          </div>
        );
      })}
    </div>
  );
}
