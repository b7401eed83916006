import type { EsimPurchase } from '@esim/contracts';
import { dataUrlToFile, shareQrCode } from './shareQr';
import { dataAmount, qrFileName, remainingPercent, topUpPath, walletEntries, type WalletLine } from './wallet';

const PNG = 'data:image/png;base64,iVBORw0KGgo=';

const purchase = (over: Partial<EsimPurchase>): EsimPurchase => ({
  id: '00000000-0000-4000-8000-000000000001',
  planType: '3GB',
  amountGB: 3,
  priceUSD: 499,
  priceCents: 499,
  currency: 'USD',
  country: 'BR',
  paymentIntentId: 'pi_1',
  paymentMethod: 'card',
  status: 'activated',
  iccid: '8900000000000000011',
  lpaCode: 'LPA:1$smdp$bought',
  qrCode: PNG,
  createdAt: '2026-01-03T10:00:00.000Z',
  activatedAt: '2026-01-03T10:00:05.000Z',
  refundableUntil: '2026-01-10T10:00:00.000Z',
  refundedAt: null,
  refund: { eligible: true, reason: null, until: '2026-01-10T10:00:00.000Z' },
  ...over,
});
const line = (over: Partial<WalletLine>): WalletLine => ({
  iccid: '8900000000000000022',
  lpaCode: 'LPA:1$smdp$redeemed',
  qrCode: PNG,
  msisdn: null,
  planTier: '1GB',
  source: 'redeemed',
  totalGB: 1,
  createdAt: '2026-01-02T10:00:00.000Z',
  lastDeliveredAt: '2026-01-02T10:00:00.000Z',
  status: 'active',
  cancelledAt: null,
  ...over,
});

describe('the My eSIMs wallet', () => {
  it('lists purchases, redeemed and gifted lines, newest first, a bought line once (as its purchase)', () => {
    const entries = walletEntries(
      [
        purchase({}),
        purchase({
          id: '00000000-0000-4000-8000-000000000002',
          status: 'processing',
          iccid: null,
          lpaCode: null,
          qrCode: null,
          createdAt: '2026-01-04T00:00:00.000Z',
        }),
      ],
      [
        line({}),
        line({
          iccid: '8900000000000000011',
          source: 'bought',
          planTier: '3GB',
          totalGB: 3,
          lpaCode: 'LPA:1$smdp$bought',
          createdAt: '2026-01-03T10:00:05.000Z',
        }),
        line({ iccid: '8900000000000000033', source: 'gifted', planTier: '5GB', totalGB: 5, createdAt: '2026-01-01T00:00:00.000Z' }),
      ],
    );
    expect(entries.map((e) => [e.source, e.planType, e.status, e.ready, e.priceCents])).toEqual([
      ['bought', '3GB', 'processing', false, 499],
      ['bought', '3GB', 'activated', true, 499],
      ['redeemed', '1GB', 'activated', true, null],
      ['gifted', '5GB', 'activated', true, null],
    ]);
    expect(entries[1]).toMatchObject({
      iccid: '8900000000000000011',
      lpaCode: 'LPA:1$smdp$bought',
      qrCode: PNG,
      country: 'BR',
      amountGB: 3,
    });
  });

  it('still shows a bought line when the purchases could not be read', () => {
    const entries = walletEntries(undefined, [line({ source: 'bought', planTier: '10GB', totalGB: 10 })]);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ source: 'bought', planType: '10GB', ready: true, priceCents: null });
  });

  it('shows a bought line cancelled for its refund as refunded and cancelled, not ready (no usage, top-up or setup)', () => {
    const refunded = purchase({ status: 'refunded', refundedAt: '2026-01-04T00:00:00.000Z', refund: { eligible: false, reason: 'already_refunded', until: '2026-01-10T10:00:00.000Z' } });
    const cancelled = line({ iccid: '8900000000000000011', source: 'bought', status: 'cancelled', cancelledAt: '2026-01-04T00:00:00.000Z' });
    expect(walletEntries([refunded], [cancelled])).toEqual([
      expect.objectContaining({ status: 'refunded', cancelled: true, ready: false, refund: { eligible: false, reason: 'already_refunded', until: '2026-01-10T10:00:00.000Z' } }),
    ]);
    // Its purchase could not be read: the line alone still says it was refunded.
    expect(walletEntries(undefined, [cancelled])).toEqual([expect.objectContaining({ status: 'refunded', cancelled: true, ready: false, refund: null })]);
  });

  it('is empty with nothing held', () => {
    expect(walletEntries([], [])).toEqual([]);
    expect(walletEntries(undefined, undefined)).toEqual([]);
  });

  it('tops up through /iccid with the ICCID filled', () => {
    expect(topUpPath('8900000000000000011')).toBe('/iccid?iccid=8900000000000000011');
  });

  it('names a saved QR code after the ICCID', () => {
    expect(qrFileName('8900000000000000011')).toBe('esim-qr-0011.png');
    expect(qrFileName(null)).toBe('esim-qr.png');
  });

  it('states data left in MB below 1 GB and in GB (one decimal) above, and its share', () => {
    expect(dataAmount(512)).toEqual({ value: 512, unit: 'MB' });
    expect(dataAmount(3072)).toEqual({ value: 3, unit: 'GB' });
    expect(dataAmount(1000 + 1024)).toEqual({ value: 2, unit: 'GB' });
    expect(dataAmount(2900)).toEqual({ value: 2.8, unit: 'GB' });
    expect(remainingPercent({ remainingMb: 768, allowedMb: 1024 })).toBe(75);
    expect(remainingPercent({ remainingMb: null, allowedMb: 1024 })).toBeNull();
    expect(remainingPercent({ remainingMb: 10, allowedMb: 0 })).toBeNull();
  });
});

describe('sharing a QR code', () => {
  const qr = { dataUrl: PNG, lpaCode: 'LPA:1$smdp$x', fileName: 'esim-qr-0011.png', title: '3GB eSIM' };

  it('turns the data URL into a PNG file', async () => {
    const file = dataUrlToFile(PNG, 'a.png')!;
    expect([file.name, file.type, file.size]).toEqual(['a.png', 'image/png', 8]);
    expect(dataUrlToFile('not a data url', 'a.png')).toBeNull();
  });

  it('shares the image when the device can, else the activation code as text', async () => {
    const shared: ShareData[] = [];
    const withFiles = { share: async (d: ShareData) => void shared.push(d), canShare: () => true };
    await expect(shareQrCode(qr, withFiles)).resolves.toBe('shared');
    expect(shared[0].files?.[0].name).toBe('esim-qr-0011.png');
    const textOnly = { share: async (d: ShareData) => void shared.push(d), canShare: () => false };
    await expect(shareQrCode(qr, textOnly)).resolves.toBe('shared');
    expect(shared[1]).toEqual({ title: '3GB eSIM', text: 'LPA:1$smdp$x' });
  });

  it('fails without Web Share or when sharing throws, and takes closing the sheet as no failure', async () => {
    await expect(shareQrCode(qr, {})).resolves.toBe('failed');
    await expect(shareQrCode(qr, undefined)).resolves.toBe('failed');
    const broken = {
      share: async () => Promise.reject(Object.assign(new Error('denied'), { name: 'NotAllowedError' })),
      canShare: () => true,
    };
    await expect(shareQrCode(qr, broken)).resolves.toBe('failed');
    const closed = { share: async () => Promise.reject(Object.assign(new Error('closed'), { name: 'AbortError' })), canShare: () => true };
    await expect(shareQrCode(qr, closed)).resolves.toBe('cancelled');
  });
});
