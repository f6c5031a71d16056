/**
 * The counting forms' models (issue #3 points 1–3): what the manager types becomes the contract's
 * bodies (validated by the contract's own zod schemas), with expected vs counted vs variance
 * computed live and the site's rules deciding which parts are required.
 */
import { describe, expect, it } from 'vitest';
import { CashCountBodySchema, SafeCountBodySchema } from '../../src/contract/counting.ts';
import {
  emptyCashCountForm,
  formFromBody,
  requiredParts,
  storedCountTotals,
  summary,
  toCashCountBody,
} from '../../src/client/features/counting/cash-count-model.ts';
import { parseMoneyToCents } from '../../src/client/features/counting/money-input.ts';
import { emptyReceiptForm, toReceiptInput } from '../../src/client/features/counting/receipt-model.ts';
import {
  emptySafeCountForm,
  safeFigures,
  toSafeCountBody,
} from '../../src/client/features/counting/safe-count-model.ts';
import {
  AWAITING_DAYS,
  awaitingPeriod,
  failureOutcome,
} from '../../src/client/features/counting/safe-signatures.ts';
import { ApiFailure } from '../../src/client/lib/http.ts';

const NOW = '2026-11-22T14:32:00.000Z';

describe('amounts typed by a manager', () => {
  it('reads French and English decimal marks, spaces and the euro sign as integer cents', () => {
    expect(parseMoneyToCents('12,50')).toBe(1250);
    expect(parseMoneyToCents('12.5')).toBe(1250);
    expect(parseMoneyToCents('1 234,05 €')).toBe(123405);
    expect(parseMoneyToCents('7')).toBe(700);
    expect(parseMoneyToCents('')).toBeNull();
    expect(parseMoneyToCents('12,345')).toBe('invalid');
    expect(parseMoneyToCents('-3')).toBe('invalid');
    expect(parseMoneyToCents('abc')).toBe('invalid');
  });
});

describe('cash count form', () => {
  it('takes the required parts from the site rules, with the defaults for rules never changed', () => {
    expect(requiredParts(null)).toEqual({ cash: true, cheques: true, mealVouchers: true, cardSlips: false });
    expect(
      requiredParts([
        { restaurantId: 1, libelle: 'comptageCheques', active: false },
        { restaurantId: 1, libelle: 'comptageCartes', active: true },
      ]),
    ).toEqual({ cash: true, cheques: false, mealVouchers: true, cardSlips: true });
  });

  it('shows expected, counted and variance per means of payment as the manager types', () => {
    const form = {
      ...emptyCashCountForm(3, '2026-11-22', 2),
      quantities: { 2000: 3, 50: 4 },
      cashTouched: true,
      cheques: '45,00',
    };
    const rows = summary(
      form,
      { cashCents: 6500, chequesCents: 4500, mealVouchersCents: 1000, cardSlipsCents: 9000 },
      requiredParts(null),
    );
    expect(rows).toEqual([
      { part: 'cash', required: true, expected: 6500, counted: 6200, variance: -300 },
      { part: 'cheques', required: true, expected: 4500, counted: 4500, variance: 0 },
      // Required and left empty: counted, and found empty (issue #20 item 3).
      { part: 'mealVouchers', required: true, expected: 1000, counted: 0, variance: -1000 },
      // Optional and left empty: not counted.
      { part: 'cardSlips', required: false, expected: 9000, counted: null, variance: null },
    ]);
  });

  it('builds a body the contract accepts: notes and coins by denomination, other means as cents, untouched optional parts null', () => {
    const form = {
      ...emptyCashCountForm(3, '2026-11-22', 2),
      quantities: { 50: 4, 2000: 3, 100: 0 },
      cashTouched: true,
      cheques: '45',
      mealVouchers: '12,30',
      comment: '  fond rendu  ',
    };
    const result = toCashCountBody(form, requiredParts(null), NOW);
    expect(result).toEqual({
      ok: true,
      body: {
        site: 3,
        dateFiscale: '2026-11-22',
        caisse: 2,
        cash: [
          { denominationCents: 2000, quantity: 3 },
          { denominationCents: 50, quantity: 4 },
        ],
        chequesCents: 4500,
        mealVouchersCents: 1230,
        cardSlipsCents: null,
        comment: 'fond rendu',
        countedAt: NOW,
      },
    });
    if (result.ok) expect(CashCountBodySchema.safeParse(result.body).success).toBe(true);
  });

  it('takes a required part left empty as zero and an optional one as not counted (issue #20 item 3)', () => {
    const form = { ...emptyCashCountForm(3, '2026-11-22', 2), cashTouched: true };
    const result = toCashCountBody(form, requiredParts(null), NOW);
    expect(result).toMatchObject({
      ok: true,
      body: { cash: [], chequesCents: 0, mealVouchersCents: 0, cardSlipsCents: null },
    });
    if (result.ok) expect(CashCountBodySchema.safeParse(result.body).success).toBe(true);
  });

  it('refuses an unreadable amount, and a form rebuilt from the body keeps what was typed', () => {
    const form = { ...emptyCashCountForm(3, '2026-11-22', 2), cheques: '12,3,4', cardSlips: '' };
    const result = toCashCountBody(form, requiredParts(null), NOW);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.errors).toEqual([{ field: 'cheques', messageId: 'counting.error.amount' }]);
    }
    // The form object itself is untouched: the screen shows it again with the errors.
    expect(form.cheques).toBe('12,3,4');

    const ok = toCashCountBody(
      { ...form, cheques: '10', mealVouchers: '0', quantities: { 500: 2 } },
      requiredParts(null),
      NOW,
    );
    expect(ok.ok).toBe(true);
    if (ok.ok) {
      const again = formFromBody(ok.body, 'fr');
      expect(again).toMatchObject({
        cheques: '10,00',
        mealVouchers: '0,00',
        cardSlips: '',
        quantities: { 500: 2 },
      });
    }
  });

  it('needs a site, a date and a terminal', () => {
    const result = toCashCountBody(emptyCashCountForm(null, '2026-11-22', null), requiredParts(null), NOW);
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.errors.map((e) => e.field)).toEqual(expect.arrayContaining(['site', 'caisse']));
  });
});

describe('safe count form', () => {
  it('computes expected = opening + deposits − withdrawals and the variance of the counted content', () => {
    const form = {
      ...emptySafeCountForm(3, '2026-11-22'),
      opening: '150',
      deposits: '320,50',
      withdrawals: '200',
      quantities: { 5000: 5, 1000: 2 },
    };
    expect(safeFigures(form)).toEqual({ expected: 27050, counted: 27000, variance: -50 });
    const result = toSafeCountBody(form, NOW);
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect(result.body).toMatchObject({
        openingCents: 15000,
        depositsCents: 32050,
        withdrawalsCents: 20000,
      });
      expect(SafeCountBodySchema.safeParse(result.body).success).toBe(true);
    }
  });

  it('requires the opening float', () => {
    const result = toSafeCountBody(emptySafeCountForm(3, '2026-11-22'), NOW);
    expect(result).toEqual({
      ok: false,
      errors: [{ field: 'opening', messageId: 'counting.error.required' }],
    });
  });
});

describe('manager receipt form', () => {
  it('checks seller and manager codes and names and the complements with the contract', () => {
    const empty = toReceiptInput(emptyReceiptForm(3, '2026-11-22', 'chef'));
    expect(empty.ok).toBe(false);
    if (!empty.ok) {
      expect(empty.errors.map((e) => e.field)).toEqual(
        expect.arrayContaining(['codeVendeur', 'nomVendeur', 'codeManager', 'amount', 'motif']),
      );
    }
    const filled = toReceiptInput({
      ...emptyReceiptForm(3, '2026-11-22', 'chef'),
      codeVendeur: '12',
      nomVendeur: 'Alice',
      codeManager: '900',
      amount: '35,20',
      motif: 'Fond de caisse',
    });
    expect(filled).toEqual({
      ok: true,
      input: {
        site: 3,
        dateFiscale: '2026-11-22',
        codeVendeur: '12',
        nomVendeur: 'Alice',
        codeManager: '900',
        nomManager: 'chef',
        complements: { montantCents: 3520, motif: 'Fond de caisse', commentaire: '' },
        documentId: null,
      },
    });
  });
});

describe("the safe screen's online actions", () => {
  it('list the counts waiting for a countersignature over the 31 days up to the chosen date', () => {
    expect(AWAITING_DAYS).toBe(31);
    expect(awaitingPeriod('2026-03-31')).toEqual({ dateDebut: '2026-03-01', dateFin: '2026-03-31' });
    expect(awaitingPeriod('2026-03-02')).toEqual({ dateDebut: '2026-01-31', dateFin: '2026-03-02' });
  });

  it('keep the key after a failure that may have acted (network, 5xx, still running), drop it after a refusal', () => {
    const offline = failureOutcome(new ApiFailure('Network Error', null), 'counting.online.mail');
    expect(offline).toEqual({ messageId: 'counting.online.mail', settle: false });
    // Some recipients may have been mailed: the retry reuses the key and reaches only the others.
    expect(failureOutcome(new ApiFailure('ErreurEnvoiMail', 502), 'x')).toEqual({
      messageId: 'error.ErreurEnvoiMail',
      settle: false,
    });
    expect(failureOutcome(new ApiFailure('IdempotencyKeyInProgress', 503), 'x')).toEqual({
      messageId: 'counting.online.inProgress',
      settle: false,
    });
    expect(failureOutcome(new ApiFailure('AlreadyCountersigned', 409), 'x')).toEqual({
      messageId: 'error.AlreadyCountersigned',
      settle: true,
    });
    expect(
      failureOutcome(new ApiFailure('noDataError', 400), 'x', { noDataError: 'counting.mail.noRecipient' }),
    ).toEqual({ messageId: 'counting.mail.noRecipient', settle: true });
    expect(failureOutcome(new Error('bug'), 'x')).toEqual({
      messageId: 'app.unexpectedError',
      settle: false,
    });
  });
});

describe('stored cash count totals', () => {
  it('adds the counted methods and their variances in cents, a method not counted adding nothing', () => {
    expect(
      storedCountTotals({
        cashCents: 12_345,
        chequesCents: 4_550,
        mealVouchersCents: null,
        cardSlipsCents: 1,
        variance: { cashCents: -5, chequesCents: 250, mealVouchersCents: null, cardSlipsCents: 0 },
      }),
    ).toEqual({ countedCents: 16_896, varianceCents: 245 });
    expect(
      storedCountTotals({
        cashCents: null,
        chequesCents: null,
        mealVouchersCents: null,
        cardSlipsCents: null,
        variance: { cashCents: null, chequesCents: null, mealVouchersCents: null, cardSlipsCents: null },
      }),
    ).toEqual({ countedCents: 0, varianceCents: 0 });
  });
});
