import { ICCID_RULE_MESSAGE, SANDBOX_DEMO_ICCID, type RedemptionResponse } from '@esim/contracts';
import { HttpError, NetworkError } from '../../lib/api';
import { ACTIVATION_STORAGE_KEY, activationDataOf, readActivationData, saveActivationData } from './activationData';
import { coveringGift, giftCovers, planAccess } from './gifts';
import { asSuccessState, giftedSummary } from './giftedSummary';
import { isValidIccid, maskIccid, normalizeIccid } from './iccid';
import { IdempotencyKeys, isDefiniteAnswer, newIdempotencyKey } from './idempotency';
import { chooseRedeemCall, routeRedemption, submitLabel } from './redemptionFlow';
import { classifyRedemptionError, insufficientPoints, redemptionErrorToast } from './redemptionErrors';
import en from '../../i18n/locales/en.json';

const serverError = (status: number, message: string, extra: Record<string, unknown> = {}) =>
  new HttpError(status, 'Error', JSON.stringify({ message, ...extra }));

describe('ICCID helpers', () => {
  it('masks to the first 5 and the last 3 characters', () => {
    expect(maskIccid('8900000000000000001')).toBe('89000••••001');
    expect(maskIccid('89012345678901234567')).toBe('89012••••567');
    expect(maskIccid(' 8901234567890123456 ')).toBe('89012••••456');
  });

  it('shows short or missing values as they are', () => {
    expect(maskIccid('12345678')).toBe('12345678');
    expect(maskIccid(null)).toBe('');
    expect(maskIccid(undefined)).toBe('');
  });

  it("applies the contract's rule: 19-20 digits starting with 89, spaces and dashes ignored", () => {
    expect(isValidIccid(SANDBOX_DEMO_ICCID)).toBe(true);
    expect(isValidIccid('89012345678901234567')).toBe(true);
    expect(isValidIccid('8901 2345 6789 0123 456')).toBe(true);
    expect(isValidIccid('8901-2345-6789-0123-456')).toBe(true);
    expect(normalizeIccid(' 8901 2345-6789 ')).toBe('890123456789');
    expect(isValidIccid('890123456789012345')).toBe(false); // 18 digits
    expect(isValidIccid('890123456789012345678')).toBe(false); // 21 digits
    expect(isValidIccid('7901234567890123456')).toBe(false); // not 89
    expect(isValidIccid('89012345678901234a5')).toBe(false);
    expect(isValidIccid('')).toBe(false);
  });

  it('words the rule exactly as the contract in English', () => {
    expect(en.redeem.iccid.invalid).toBe(ICCID_RULE_MESSAGE);
    expect(en.redeem.errors.iccidFormat).toBe(ICCID_RULE_MESSAGE);
  });
});

describe('redemption flow', () => {
  it('spends points when only points pay, claims the gift when it covers the plan unless the person chose points', () => {
    expect(chooseRedeemCall('points')).toBe('redeem-points');
    expect(chooseRedeemCall('gift')).toBe('gift-data');
    // A 3 GB gift with 4,000 points: the gift by default, points only when chosen.
    expect(chooseRedeemCall('both')).toBe('gift-data');
    expect(chooseRedeemCall('both', 'gift')).toBe('gift-data');
    expect(chooseRedeemCall('both', 'points')).toBe('redeem-points');
    expect(chooseRedeemCall('gift', 'points')).toBe('gift-data');
  });

  it('labels the submit button as the spec lists', () => {
    expect(submitLabel(true, 'redeem-points', 'new')).toBe('processing');
    expect(submitLabel(false, 'redeem-points', 'new')).toBe('purchase');
    expect(submitLabel(false, 'redeem-points', 'existing')).toBe('addData');
    expect(submitLabel(false, 'gift-data', 'new')).toBe('claimFree');
    expect(submitLabel(false, 'gift-data', 'existing')).toBe('claimFree');
  });

  it('routes each status of the answer', () => {
    expect(routeRedemption('esim_activation_ready')).toBe('activation');
    expect(routeRedemption('manual_transfer_required')).toBe('manual');
    expect(routeRedemption('processing')).toBe('processing');
    expect(routeRedemption('failed')).toBe('failed');
    expect(routeRedemption('pending_review')).toBe('review');
    expect(routeRedemption('rejected')).toBe('failed');
    expect(routeRedemption('completed')).toBe('success');
    expect(routeRedemption('something_new')).toBe('success');
  });
});

describe('idempotency keys', () => {
  it('makes UUIDs, also without crypto.randomUUID (plain HTTP)', () => {
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    expect(newIdempotencyKey()).toMatch(uuid);
    const getRandomValues = ((array: Uint8Array) => globalThis.crypto.getRandomValues(array)) as unknown as Crypto['getRandomValues'];
    const fallback = newIdempotencyKey({ getRandomValues });
    expect(fallback).toMatch(uuid);
    expect(fallback).not.toBe(newIdempotencyKey());
  });

  it('keeps the key for a retry of an unanswered submit, and makes a new one per new intent', () => {
    let n = 0;
    const keys = new IdempotencyKeys(() => `key-${++n}`);
    const body = { planTier: '1GB', purchaseType: 'new', country: 'US' };
    expect(keys.forSubmit(body)).toBe('key-1');
    expect(keys.forSubmit({ ...body })).toBe('key-1'); // network failure, same form: same redemption
    expect(keys.forSubmit({ ...body, country: 'MX' })).toBe('key-2'); // changed form: a new intent
    keys.settle();
    expect(keys.forSubmit({ ...body, country: 'MX' })).toBe('key-3'); // answered: the next submit is new
  });

  it('knows which failures leave the outcome unknown', () => {
    expect(isDefiniteAnswer(new NetworkError())).toBe(false);
    expect(isDefiniteAnswer(serverError(502, 'Bad gateway'))).toBe(false);
    expect(isDefiniteAnswer(serverError(403, 'Please complete the captcha verification first'))).toBe(false);
    expect(isDefiniteAnswer(serverError(429, 'Too many requests'))).toBe(false);
    expect(isDefiniteAnswer(serverError(409, 'Insufficient points'))).toBe(true);
    expect(isDefiniteAnswer(serverError(400, ICCID_RULE_MESSAGE))).toBe(true);
  });
});

describe('redemption errors (spec section 8)', () => {
  const refused = (providerReason: string | null, message = 'KeepGo refused') =>
    serverError(422, message, { code: 'unprocessable', reason: 'provider_refused', details: { redemptionId: 'r1', providerReason, pointsUsed: 0 } });

  it('maps the declared reasons, not the English text', () => {
    const iccidIssue = { code: 'validation', reason: 'invalid_request', details: [{ path: 'iccid', message: ICCID_RULE_MESSAGE }] };
    expect(classifyRedemptionError(serverError(400, 'ICCID muss …', iccidIssue))).toBe('iccidFormat');
    expect(classifyRedemptionError(serverError(400, 'x', { code: 'validation', reason: 'invalid_request', details: [{ path: 'country', message: 'x' }] }))).toBe('generic');
    expect(classifyRedemptionError(refused('line_not_found'))).toBe('iccidNotFound');
    expect(classifyRedemptionError(serverError(404, 'Linha inexistente', { code: 'not_found', reason: 'line_not_found' }))).toBe('iccidNotFound');
    expect(classifyRedemptionError(refused('no_refills_available'))).toBe('noPlans');
    expect(classifyRedemptionError(refused('no_suitable_offer'))).toBe('noPlans');
    expect(classifyRedemptionError(refused('refused'))).toBe('provider');
    expect(classifyRedemptionError(serverError(503, 'down', { code: 'unavailable', reason: 'provider_unavailable' }))).toBe('provider');
    expect(classifyRedemptionError(serverError(409, 'Pontos insuficientes', { code: 'conflict', reason: 'insufficient_points', details: { requested: 1, available: 0 } }))).toBe('insufficient');
    expect(classifyRedemptionError(new NetworkError())).toBe('network');
    // The old fragments alone no longer decide anything.
    expect(classifyRedemptionError(serverError(409, 'Insufficient points: you need 3000 points but only have 2999'))).toBe('generic');
    expect(classifyRedemptionError(serverError(422, 'No refills available for this line'))).toBe('generic');
  });

  it('reads the needed and current points from the typed details, else from the page', () => {
    expect(
      insufficientPoints(
        serverError(409, 'Pontos insuficientes', { code: 'conflict', reason: 'insufficient_points', details: { requested: 3000, available: 2999 } }),
        { needed: 1, current: 0 },
      ),
    ).toEqual({ needed: 3000, current: 2999 });
    expect(
      insufficientPoints(serverError(409, 'Insufficient points: you need 3,000 points but only have 2,999'), { needed: 1000, current: 999 }),
    ).toEqual({ needed: 1000, current: 999 });
  });

  const t = (key: string, options?: Record<string, unknown>) => (options ? `${key} ${JSON.stringify(options)}` : key);
  const ctx = { t, formatNumber: (n: number) => n.toLocaleString('en'), needed: 3000, current: 2500 };

  it('titles the toast by the call that failed', () => {
    const error = refused('no_suitable_offer');
    expect(redemptionErrorToast(error, { ...ctx, call: 'redeem-points' })).toEqual({
      title: 'redeem.errors.redeemTitle',
      description: 'redeem.errors.noPlans',
    });
    expect(redemptionErrorToast(error, { ...ctx, call: 'gift-data' }).title).toBe('redeem.errors.giftTitle');
    expect(redemptionErrorToast(serverError(409, 'x', { code: 'conflict', reason: 'insufficient_points' }), { ...ctx, call: 'redeem-points' })).toEqual({
      title: 'redeem.errors.insufficientTitle',
      description: 'redeem.errors.insufficient {"needed":"3,000","current":"2,500"}',
    });
  });

  it('appends the details to "ICCID not found" on the redeem path only, keeps the provider detail, and words other reasons by code', () => {
    const notFound = refused('line_not_found', 'line not found');
    expect(redemptionErrorToast(notFound, { ...ctx, call: 'redeem-points' }).description).toBe(
      'redeem.errors.iccidNotFoundDetails {"details":"line not found"}',
    );
    expect(redemptionErrorToast(notFound, { ...ctx, call: 'gift-data' }).description).toBe('redeem.errors.iccidNotFound');
    expect(redemptionErrorToast(refused('refused', 'KeepGo API error: 500'), { ...ctx, call: 'gift-data' }).description).toBe(
      'redeem.errors.provider {"details":"KeepGo API error: 500"}',
    );
    const noGift = serverError(409, 'No gift', { code: 'conflict', reason: 'no_covering_gift', details: { planTier: 'pro', largestGiftGB: 1 } });
    expect(redemptionErrorToast(noGift, { ...ctx, call: 'gift-data' }).description).toBe('errors.reasons.no_covering_gift {"largestGiftGB":"1"}');
    expect(redemptionErrorToast(serverError(409, 'No gift'), { ...ctx, call: 'gift-data' }).description).toBe('errors.generic');
    expect(redemptionErrorToast(new NetworkError(), { ...ctx, call: 'gift-data' }).description).toBe('errors.network');
  });
});

const response: RedemptionResponse = {
  redemptionId: '6f1c1f7e-3b7a-4a53-9d42-1c1f8e0f7a11',
  amountGB: 3,
  pointsUsed: 3000,
  status: 'esim_activation_ready',
  message: 'Your eSIM is ready',
  iccid: '8912345678901234567',
  lpaCode: 'LPA:1$smdp.example.com$ABC-123',
  qrCode: 'data:image/png;base64,iVBORw0KGgo=',
  msisdn: null,
  giftId: '0d7b3a52-7d0c-4e54-8d3b-3d0b2e7b9c10',
};

class MemoryStorage {
  readonly items = new Map<string, string>();
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.items.set(key, value);
  }
}

describe('activation data in browser storage', () => {
  it('stores exactly the fields of spec section 3 under esim_activation_data and reads them back', () => {
    const storage = new MemoryStorage();
    saveActivationData(activationDataOf(response), storage);
    expect(Object.keys(JSON.parse(storage.items.get(ACTIVATION_STORAGE_KEY)!)).sort()).toEqual([
      'amountGB',
      'giftId',
      'iccid',
      'lpaCode',
      'message',
      'msisdn',
      'pointsUsed',
      'qrCode',
    ]);
    expect(readActivationData(storage)).toEqual({
      giftId: response.giftId,
      amountGB: 3,
      pointsUsed: 3000,
      lpaCode: response.lpaCode,
      msisdn: null,
      iccid: response.iccid,
      message: 'Your eSIM is ready',
      qrCode: response.qrCode,
    });
  });

  it('ignores absent, corrupted or empty data', () => {
    const storage = new MemoryStorage();
    expect(readActivationData(storage)).toBeNull();
    storage.setItem(ACTIVATION_STORAGE_KEY, '{not json');
    expect(readActivationData(storage)).toBeNull();
    storage.setItem(ACTIVATION_STORAGE_KEY, JSON.stringify({ amountGB: 1 }));
    expect(readActivationData(storage)).toBeNull();
    expect(readActivationData(null)).toBeNull();
  });
});

describe("'Data Gifted!' summary", () => {
  const user = { planTierLastChosen: '5GB', iccid: '8900000000000000001', lastGiftedAt: '2025-01-01T00:00:00Z' };

  it('shows the redemption just made, before anything older', () => {
    expect(
      giftedSummary({
        state: { redemption: { ...response, status: 'completed', iccid: null }, iccid: '8900000000000000001' },
        user,
        stored: null,
      }),
    ).toEqual({
      amountGB: 3,
      iccid: '8900000000000000001',
      status: 'active',
      message: 'Your eSIM is ready',
      topup: false,
      paidWithPoints: response.pointsUsed > 0,
    });
  });

  it("says 'Data redeemed!' for data bought with the person's points, 'Data Gifted!' for a claimed gift", () => {
    const state = (pointsUsed: number) => ({ redemption: { ...response, status: 'completed' as const, pointsUsed } });
    expect(giftedSummary({ state: state(3000), user, stored: null })?.paidWithPoints).toBe(true);
    expect(giftedSummary({ state: state(0), user, stored: null })?.paidWithPoints).toBe(false);
  });

  it("shows a top-up as data added to the ICCID's last 4 digits, without the server's words, whoever holds the line", () => {
    const topup = { ...response, status: 'completed' as const, lpaCode: null, qrCode: null, message: '3GB was added to the eSIM ••••0001.' };
    expect(giftedSummary({ state: { redemption: { ...topup, iccid: '••••0001' }, iccid: '8900000000000000001', purchaseType: 'existing' }, user, stored: null })).toEqual({
      amountGB: 3,
      iccid: '••••0001',
      status: 'active',
      message: null,
      topup: true,
      paidWithPoints: topup.pointsUsed > 0,
    });
    // The owner's own line comes back in full; the page still shows its last 4 digits.
    expect(
      giftedSummary({ state: { redemption: { ...topup, iccid: '8900000000000000001' }, purchaseType: 'existing' }, user: null, stored: null })?.iccid,
    ).toBe('••••0001');
    expect(asSuccessState({ redemption: topup, purchaseType: 'existing' })?.purchaseType).toBe('existing');
    expect(asSuccessState({ redemption: topup, purchaseType: 'other' })?.purchaseType).toBeUndefined();
  });

  it('marks a delivery waiting for an operator as pending', () => {
    expect(
      giftedSummary({ state: { redemption: { ...response, status: 'manual_transfer_required' } }, user: null, stored: null })?.status,
    ).toBe('pending');
  });

  it("falls back to the user's last gift (the amount actually gifted), then to the stored eSIM", () => {
    expect(giftedSummary({ state: null, user: { ...user, planTierLastChosen: '1GB' }, stored: null })).toEqual({
      amountGB: 1,
      iccid: user.iccid,
      status: 'active',
      message: null,
      topup: false,
      paidWithPoints: false,
    });
    expect(
      giftedSummary({
        state: null,
        user: { planTierLastChosen: null, iccid: null, lastGiftedAt: null },
        stored: activationDataOf(response),
      })?.amountGB,
    ).toBe(3);
    expect(giftedSummary({ state: null, user: { planTierLastChosen: null, iccid: null, lastGiftedAt: null }, stored: null })).toBeNull();
  });

  it('does not trust malformed router state', () => {
    expect(asSuccessState(null)).toBeNull();
    expect(asSuccessState({ redemption: { amountGB: '3' } })).toEqual({ redemption: undefined, iccid: undefined });
    expect(asSuccessState({ redemption: response, iccid: 42 })?.redemption).toBe(response);
  });
});

describe('plan access', () => {
  const gift = (amountGB: number) => ({
    giftId: '0d7b3a52-7d0c-4e54-8d3b-3d0b2e7b9c10',
    amountGB,
    planTier: `${amountGB}GB` as '1GB',
    grantedAt: '2025-01-01T00:00:00Z',
  });
  const plan = (gb: number) => ({ amountGB: gb, pointsCost: gb * 1000 });

  it('opens a tier with points when the balance covers it, with a gift that covers it, or with either', () => {
    expect(planAccess(1000, plan(1), [])).toBe('points');
    expect(planAccess(4000, plan(3), [gift(3)])).toBe('both');
    expect(planAccess(4000, plan(3), [gift(1)])).toBe('points');
    expect(planAccess(999, plan(1), [])).toBe('locked');
    expect(planAccess(2999, plan(3), [])).toBe('locked');
    expect(planAccess(2999, plan(3), [gift(3)])).toBe('gift');
    expect(planAccess(1200, plan(3), [gift(1)])).toBe('locked'); // a 1GB gift does not cover 3GB
    expect(planAccess(1200, plan(3), [gift(5)])).toBe('gift');
    expect(giftCovers([], plan(1))).toBe(false);
  });

  it('names the gift a claim uses as the server picks it: the smallest that covers the plan', () => {
    const five = gift(5);
    const three = { ...gift(3), giftId: '1d7b3a52-7d0c-4e54-8d3b-3d0b2e7b9c10' };
    expect(coveringGift([five, three], plan(1))).toBe(three);
    expect(coveringGift([five, three], plan(5))).toBe(five);
    expect(coveringGift([three], plan(5))).toBeUndefined();
  });
});
