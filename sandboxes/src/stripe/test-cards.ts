/**
 * Stripe's documented test cards and test PaymentMethods (docs/payments.md, "Test cards"), and what
 * the emulator does with each. Any other number that passes the Luhn check is refused the way
 * Stripe's test mode refuses a real card.
 */
export interface CardOutcome {
  brand: 'visa' | 'mastercard' | 'amex';
  funding: 'credit' | 'debit';
  /** null: the charge succeeds. */
  decline: null | { code: string; declineCode?: string; message: string };
}

const declined = (declineCode: string, message: string) => ({ code: 'card_declined', declineCode, message });

export const TEST_CARDS: Readonly<Record<string, CardOutcome>> = {
  '4242424242424242': { brand: 'visa', funding: 'credit', decline: null },
  '4000056655665556': { brand: 'visa', funding: 'debit', decline: null },
  '5555555555554444': { brand: 'mastercard', funding: 'credit', decline: null },
  '378282246310005': { brand: 'amex', funding: 'credit', decline: null },
  '4000000000000002': { brand: 'visa', funding: 'credit', decline: declined('generic_decline', 'Your card was declined.') },
  '4000000000009995': { brand: 'visa', funding: 'credit', decline: declined('insufficient_funds', 'Your card has insufficient funds.') },
  '4000000000009987': { brand: 'visa', funding: 'credit', decline: declined('lost_card', 'Your card was declined.') },
  '4000000000009979': { brand: 'visa', funding: 'credit', decline: declined('stolen_card', 'Your card was declined.') },
  '4000000000000069': { brand: 'visa', funding: 'credit', decline: { code: 'expired_card', declineCode: 'expired_card', message: 'Your card has expired.' } },
  '4000000000000127': { brand: 'visa', funding: 'credit', decline: { code: 'incorrect_cvc', declineCode: 'incorrect_cvc', message: "Your card's security code is incorrect." } },
  '4000000000000119': {
    brand: 'visa',
    funding: 'credit',
    decline: { code: 'processing_error', declineCode: 'processing_error', message: 'An error occurred while processing your card. Try again in a little bit.' },
  },
};

/** Stripe's test PaymentMethod ids and the card each stands for. */
export const TEST_PAYMENT_METHODS: Readonly<Record<string, { number: string; expMonth: number; expYear: number }>> = {
  pm_card_visa: { number: '4242424242424242', expMonth: 12, expYear: 2034 },
  pm_card_visa_debit: { number: '4000056655665556', expMonth: 12, expYear: 2034 },
  pm_card_mastercard: { number: '5555555555554444', expMonth: 12, expYear: 2034 },
  pm_card_amex: { number: '378282246310005', expMonth: 12, expYear: 2034 },
  pm_card_chargeDeclined: { number: '4000000000000002', expMonth: 12, expYear: 2034 },
  pm_card_visa_chargeDeclined: { number: '4000000000000002', expMonth: 12, expYear: 2034 },
  pm_card_chargeDeclinedInsufficientFunds: { number: '4000000000009995', expMonth: 12, expYear: 2034 },
  pm_card_visa_chargeDeclinedInsufficientFunds: { number: '4000000000009995', expMonth: 12, expYear: 2034 },
  pm_card_chargeDeclinedExpiredCard: { number: '4000000000000069', expMonth: 12, expYear: 2034 },
};

/** A real (non-test) card in test mode: declined, as Stripe does. */
export const LIVE_CARD_IN_TEST_MODE: CardOutcome['decline'] = declined(
  'test_mode_live_card',
  'Your card was declined. Your request was in test mode, but used a non test (live) card. For a list of valid test cards, visit: https://stripe.com/docs/testing.',
);

export function luhnValid(number: string): boolean {
  if (!/^\d{12,19}$/.test(number)) return false;
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let digit = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** The brand Stripe would read from the number's prefix. */
export function brandOf(number: string): CardOutcome['brand'] {
  if (/^3[47]/.test(number)) return 'amex';
  if (/^(5[1-5]|2[2-7])/.test(number)) return 'mastercard';
  return 'visa';
}
