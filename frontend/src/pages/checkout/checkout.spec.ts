import { PROVISIONING_UNAVAILABLE_FRAGMENT, type PurchaseConfirmation } from '@esim/contracts';
import { formatCardNumber, formatExpiry, parseExpiry, readCard } from './cardInput';
import { checkoutSelection, successPath } from './checkoutParams';
import { activationPath, viewOfConfirmation, viewOfError } from './purchaseOutcome';
import { confirmOutcome, confirmParams } from './sandboxStripe';
import { stripeLocale } from './stripeLocale';

const q = (s: string) => new URLSearchParams(s);

describe('checkout selection (spec, /checkout)', () => {
  it('defaults to 1GB for the US', () => {
    const { plan, country } = checkoutSelection(q(''));
    expect([plan.id, plan.priceCents, country]).toEqual(['1GB', 299, 'US']);
  });

  it("reads the dashboard's plan and country, with the catalogue's price", () => {
    const { plan, country } = checkoutSelection(q('plan=3GB&country=BR'));
    expect([plan.id, plan.amountGB, plan.priceCents, country]).toEqual(['3GB', 3, 499, 'BR']);
    expect(checkoutSelection(q('plan=10gb&country=jp'))).toMatchObject({ plan: { id: '10GB', priceCents: 1099 }, country: 'JP' });
  });

  it('falls back to the defaults for values the catalogue does not know', () => {
    const { plan, country } = checkoutSelection(q('plan=2GB&country=XX'));
    expect([plan.id, country]).toEqual(['1GB', 'US']);
  });

  it('sends a paid intent to /success with the plan', () => {
    expect(successPath('pi_123abc', '3GB')).toBe('/success?payment_intent=pi_123abc&plan=3GB');
  });
});

describe('sandbox card fields', () => {
  const now = new Date('2026-05-15T12:00:00Z');

  it('groups the number by four and keeps 19 digits at most', () => {
    expect(formatCardNumber('4242424242424242')).toBe('4242 4242 4242 4242');
    expect(formatCardNumber('4242-4242 42')).toBe('4242 4242 42');
    expect(formatCardNumber('1'.repeat(25)).replace(/ /g, '')).toHaveLength(19);
  });

  it('reads the expiry as MM / YY', () => {
    expect(formatExpiry('1230')).toBe('12 / 30');
    expect(formatExpiry('5')).toBe('05');
    expect(parseExpiry('12 / 30')).toEqual({ month: 12, year: 2030 });
    expect(parseExpiry('13 / 30')).toBeNull();
    expect(parseExpiry('1 / 3')).toBeNull();
  });

  it('answers the card, or which fields are wrong', () => {
    expect(readCard({ number: '4242 4242 4242 4242', expiry: '12 / 30', cvc: '123' }, now)).toEqual({
      card: { number: '4242424242424242', expMonth: 12, expYear: 2030, cvc: '123' },
    });
    expect(readCard({ number: '', expiry: '', cvc: '' }, now)).toEqual({
      errors: { number: 'required', expiry: 'required', cvc: 'required' },
    });
    expect(readCard({ number: '4242 42', expiry: '13 / 30', cvc: '12' }, now)).toEqual({
      errors: { number: 'invalid', expiry: 'invalid', cvc: 'invalid' },
    });
    expect(readCard({ number: '4242424242424242', expiry: '04 / 26', cvc: '123' }, now)).toEqual({ errors: { expiry: 'expired' } });
    expect('card' in readCard({ number: '4242424242424242', expiry: '05 / 26', cvc: '1234' }, now)).toBe(true);
  });
});

describe('the sandbox confirm call, as Stripe.js makes it', () => {
  const target = { apiBase: '/sandbox/stripe', publishableKey: 'pk_test_x', paymentIntentId: 'pi_1', clientSecret: 'pi_1_secret_2' };

  it('sends the card form-encoded under payment_method_data', () => {
    expect(
      confirmParams(target, { number: '4000000000000002', expMonth: 4, expYear: 2031, cvc: '999' }, 'http://x/success?plan=1GB'),
    ).toEqual({
      key: 'pk_test_x',
      client_secret: 'pi_1_secret_2',
      'payment_method_data[type]': 'card',
      'payment_method_data[card][number]': '4000000000000002',
      'payment_method_data[card][exp_month]': '4',
      'payment_method_data[card][exp_year]': '2031',
      'payment_method_data[card][cvc]': '999',
      return_url: 'http://x/success?plan=1GB',
    });
  });

  it("reads a succeeded intent, a decline with Stripe's message, and an unreachable provider", () => {
    expect(confirmOutcome(200, { id: 'pi_1', status: 'succeeded', amount: 499, currency: 'usd' })).toEqual({
      kind: 'succeeded',
      intent: { id: 'pi_1', status: 'succeeded', amount: 499, currency: 'usd' },
    });
    expect(
      confirmOutcome(402, {
        error: {
          type: 'card_error',
          code: 'card_declined',
          decline_code: 'insufficient_funds',
          message: 'Your card has insufficient funds.',
        },
      }),
    ).toEqual({ kind: 'failed', message: 'Your card has insufficient funds.', code: 'card_declined', declineCode: 'insufficient_funds' });
    expect(confirmOutcome(200, { id: 'pi_1', status: 'requires_action' })).toMatchObject({
      kind: 'failed',
      message: expect.stringContaining('requires_action'),
    });
    expect(confirmOutcome(502, { message: 'Bad gateway' })).toEqual({ kind: 'unreachable' });
    expect(confirmOutcome(503, null)).toEqual({ kind: 'unreachable' });
  });

  it("speaks the interface language in Stripe's element when Stripe has it", () => {
    expect([stripeLocale('pt'), stripeLocale('fil'), stripeLocale('ur'), stripeLocale('hi')]).toEqual(['pt-BR', 'fil', 'auto', 'auto']);
  });
});

describe('the purchase confirmation on /success (spec section 8)', () => {
  const base: PurchaseConfirmation = {
    success: true,
    status: 'activated',
    message: 'eSIM purchased successfully.',
    support_message: null,
    purchaseId: '00000000-0000-4000-8000-000000000001',
    planType: '3GB',
    amountGB: 3,
    iccid: '8901234567890123456',
    lpaCode: 'LPA:1$smdp.example$ABC',
    qrCode: 'data:image/png;base64,AAAA',
  };

  it('shows an activated purchase with its eSIM', () => {
    expect(viewOfConfirmation(base)).toEqual({
      kind: 'purchased',
      planType: '3GB',
      amountGB: 3,
      iccid: base.iccid,
      lpaCode: base.lpaCode,
      qrCode: base.qrCode,
    });
  });

  it('keeps a paid purchase whose eSIM is not issued yet as processing', () => {
    expect(
      viewOfConfirmation({ ...base, status: 'processing', iccid: null, lpaCode: null, qrCode: null, message: 'Payment received.' }),
    ).toEqual({
      kind: 'processing',
      planType: '3GB',
      amountGB: 3,
      message: 'Payment received.',
    });
  });

  it('fails a manual delivery with the message, the support message and the manual-delivery sentence', () => {
    const view = viewOfConfirmation({
      ...base,
      success: false,
      status: 'manual_delivery_required',
      message: `Payment received, but the eSIM could not be issued: ${PROVISIONING_UNAVAILABLE_FRAGMENT}.`,
      support_message: 'Contact support with purchase reference X.',
      iccid: null,
      lpaCode: null,
      qrCode: null,
    });
    expect(view).toEqual({
      kind: 'failed',
      text: `Payment received, but the eSIM could not be issued: ${PROVISIONING_UNAVAILABLE_FRAGMENT}. Contact support with purchase reference X.`,
      paid: true,
      manualDelivery: true,
    });
  });

  it('fails a refused confirmation with the server message, or none (then the default text)', () => {
    expect(viewOfError('The payment has not succeeded (status: requires_payment_method).')).toEqual({
      kind: 'failed',
      text: 'The payment has not succeeded (status: requires_payment_method).',
      paid: false,
      manualDelivery: false,
    });
    expect(viewOfError(null)).toEqual({ kind: 'failed', text: null, paid: false, manualDelivery: false });
    expect(viewOfError('  ')).toMatchObject({ text: null });
  });

  it("links 'Set Up eSIM' to /esim-activation with the ICCID and the LPA code", () => {
    expect(activationPath('8901', 'LPA:1$smdp.example$A&B')).toBe('/esim-activation?iccid=8901&lpa=LPA%3A1%24smdp.example%24A%26B');
    expect(activationPath(null, 'LPA:1$x$y')).toBe('/esim-activation?lpa=LPA%3A1%24x%24y');
  });
});
