import { nestParams, readInt, readMetadata, refuseUnknown } from './form-params';
import { StripeEmulatorError } from './stripe-emulator-error';
import { luhnValid, TEST_CARDS, TEST_PAYMENT_METHODS } from './test-cards';

describe('Stripe form parameters', () => {
  it('nests bracketed keys however the body parser left them', () => {
    expect(
      nestParams({
        'payment_method_data[type]': 'card',
        'payment_method_data[card][number]': '4242',
        'metadata[userId]': 'u',
        amount: '499',
        already: { 'x[y]': '1' },
      }),
    ).toEqual({ payment_method_data: { type: 'card', card: { number: '4242' } }, metadata: { userId: 'u' }, amount: '499', already: { x: { y: '1' } } });
  });

  it('reads integers strictly and names the parameter Stripe-style when one is missing', () => {
    expect(readInt({ amount: '499' }, 'amount')).toBe(499);
    expect(() => readInt({ amount: '4.99' }, 'amount')).toThrow('Invalid integer: 4.99');
    try {
      readInt({}, 'amount', { required: true });
      throw new Error('no error');
    } catch (err) {
      expect(err).toBeInstanceOf(StripeEmulatorError);
      expect((err as StripeEmulatorError).body).toMatchObject({ type: 'invalid_request_error', code: 'parameter_missing', param: 'amount' });
    }
  });

  it("applies Stripe's metadata limits and refuses unknown parameters", () => {
    expect(readMetadata({ metadata: { a: '1', b: '' } })).toEqual({ a: '1' });
    expect(() => readMetadata({ metadata: { ['k'.repeat(41)]: 'v' } })).toThrow(/up to 40 characters/);
    expect(() => readMetadata({ metadata: { k: 'v'.repeat(501) } })).toThrow(/up to 500 characters/);
    expect(() => refuseUnknown({ amount: 1, colour: 'red' }, ['amount'])).toThrow('Received unknown parameter: colour');
  });

  it("knows Stripe's test cards, whose numbers all pass the Luhn check", () => {
    for (const number of Object.keys(TEST_CARDS)) expect(luhnValid(number)).toBe(true);
    for (const pm of Object.values(TEST_PAYMENT_METHODS)) expect(TEST_CARDS[pm.number]).toBeDefined();
    expect(luhnValid('4242424242424241')).toBe(false);
    expect(TEST_CARDS['4242424242424242'].decline).toBeNull();
    expect(TEST_CARDS['4000000000000002'].decline).toMatchObject({ code: 'card_declined', declineCode: 'generic_decline' });
    expect(TEST_CARDS['4000000000009995'].decline).toMatchObject({ code: 'card_declined', declineCode: 'insufficient_funds' });
  });
});
