import { activationDataOf } from '../redeem/activationData';
import { isImageDataUrl, resolveActivation } from './activationSource';
import { installOrder } from './installOrder';
import { androidInstallUrl, appleOneTapUrl, detectPlatform, iosVersion, parseLpa, supportsAppleOneTap, withLpaPrefix } from './lpa';

const IPHONE_17_4 =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const IPHONE_17_3 =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_3_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.3.1 Mobile/15E148 Safari/604.1';
const IPHONE_18_CHROME =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0 Mobile/15E148 Safari/604.1';
const ANDROID = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36';
const IPAD_DESKTOP_MODE =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15';
const WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

describe('LPA activation codes', () => {
  it('splits an SGP.22 code into what manual entry asks for', () => {
    expect(parseLpa('LPA:1$smdp.example.com$04386-AGYFT-A74Y8-3F815')).toEqual({
      address: 'smdp.example.com',
      matchingId: '04386-AGYFT-A74Y8-3F815',
      oid: null,
      confirmationRequired: false,
    });
    // Empty middle fields are allowed: no OID, and the flag says a confirmation code is required.
    expect(parseLpa('1$SMDP.EXAMPLE.COM$04386$$1')).toEqual({
      address: 'SMDP.EXAMPLE.COM',
      matchingId: '04386',
      oid: null,
      confirmationRequired: true,
    });
    expect(parseLpa(' LPA:1$smdp.example.com$K2-1$1.3.6.1.4.1.31746$1 ')).toEqual({
      address: 'smdp.example.com',
      matchingId: 'K2-1',
      oid: '1.3.6.1.4.1.31746',
      confirmationRequired: true,
    });
    // Only the flag `1` asks for a code; the code itself is never a field of the string.
    expect(parseLpa('LPA:1$smdp.example.com$K2-1$1.3.6.1.4.1.31746$0')?.confirmationRequired).toBe(false);
    expect(parseLpa('LPA:1$smdp.example.com$K2-1$1.3.6.1.4.1.31746')?.confirmationRequired).toBe(false);
    expect(parseLpa('lpa:1$smdp.example.com$')).toEqual({ address: 'smdp.example.com', matchingId: '', oid: null, confirmationRequired: false });
    expect(parseLpa('LPA:2$smdp.example.com$x')).toBeNull();
    expect(parseLpa('LPA:1$$x')).toBeNull();
    expect(parseLpa('')).toBeNull();
    expect(parseLpa(null)).toBeNull();
  });

  it("builds Android's direct install link with the URL-encoded LPA code", () => {
    expect(androidInstallUrl('1$smdp.example.com$AB-12')).toBe(
      'https://esimsetup.android.com/esim_qrcode_provisioning?carddata=LPA%3A1%24smdp.example.com%24AB-12',
    );
  });

  it("builds Apple's one-tap link with the URL-encoded LPA code", () => {
    expect(withLpaPrefix('1$smdp.example.com$AB')).toBe('LPA:1$smdp.example.com$AB');
    expect(appleOneTapUrl('LPA:1$smdp.example.com$AB-12')).toBe(
      'https://esimsetup.apple.com/esim_qrcode_provisioning?carddata=LPA%3A1%24smdp.example.com%24AB-12',
    );
    expect(appleOneTapUrl('1$smdp.example.com$AB-12')).toBe(appleOneTapUrl('LPA:1$smdp.example.com$AB-12'));
  });
});

describe('device detection', () => {
  it('picks the setup tab of the device', () => {
    expect(detectPlatform(IPHONE_17_4)).toBe('iphone');
    expect(detectPlatform(ANDROID)).toBe('android');
    expect(detectPlatform(IPAD_DESKTOP_MODE, 5)).toBe('iphone');
    expect(detectPlatform(IPAD_DESKTOP_MODE, 0)).toBe('other');
    expect(detectPlatform(WINDOWS)).toBe('other');
  });

  it('offers the one-tap install from iOS 17.4 on', () => {
    expect(iosVersion(IPHONE_17_3)).toEqual({ major: 17, minor: 3 });
    expect(supportsAppleOneTap(IPHONE_17_4)).toBe(true);
    expect(supportsAppleOneTap(IPHONE_18_CHROME)).toBe(true);
    expect(supportsAppleOneTap(IPHONE_17_3)).toBe(false);
    expect(supportsAppleOneTap(ANDROID)).toBe(false);
    expect(supportsAppleOneTap(IPAD_DESKTOP_MODE)).toBe(false);
  });
});

describe('which install to try first', () => {
  it('one tap on a recent iPhone, the direct link then the QR code on Android, the QR code elsewhere', () => {
    expect(installOrder(detectPlatform(IPHONE_17_4), supportsAppleOneTap(IPHONE_17_4))).toEqual(['appleOneTap', 'qr', 'manual']);
    expect(installOrder(detectPlatform(IPHONE_17_3), supportsAppleOneTap(IPHONE_17_3))).toEqual(['qr', 'manual']);
    expect(installOrder(detectPlatform(ANDROID), false)).toEqual(['androidLink', 'qr', 'manual']);
    expect(installOrder(detectPlatform(WINDOWS), false)).toEqual(['qr', 'manual']);
  });
});

describe('which eSIM the setup page shows', () => {
  const stored = activationDataOf({
    redemptionId: '6f1c1f7e-3b7a-4a53-9d42-1c1f8e0f7a11',
    amountGB: 1,
    pointsUsed: 1000,
    status: 'esim_activation_ready',
    message: 'ready',
    iccid: '8912345678901234567',
    lpaCode: 'LPA:1$smdp.example.com$A1',
    qrCode: 'data:image/png;base64,iVBORw0KGgo=',
    msisdn: '+15550100',
    giftId: null,
  });

  it('uses the stored data when the query names nothing', () => {
    expect(resolveActivation({ iccid: null, lpa: null }, stored)).toEqual({
      lpaCode: 'LPA:1$smdp.example.com$A1',
      iccid: '8912345678901234567',
      msisdn: '+15550100',
      qrCode: stored.qrCode,
      amountGB: 1,
      pointsUsed: 1000,
    });
  });

  it('prefers the query, completed by the stored data of the same eSIM only', () => {
    expect(resolveActivation({ iccid: '8912345678901234567', lpa: 'LPA:1$smdp.example.com$A1' }, stored)?.msisdn).toBe('+15550100');
    expect(resolveActivation({ iccid: '8999999999999999999', lpa: 'LPA:1$other.example$B2' }, stored)).toEqual({
      lpaCode: 'LPA:1$other.example$B2',
      iccid: '8999999999999999999',
      msisdn: null,
      qrCode: null,
      amountGB: null,
      pointsUsed: null,
    });
  });

  it('has nothing to show without an LPA code, or when the query names another eSIM', () => {
    expect(resolveActivation({ iccid: null, lpa: null }, null)).toBeNull();
    expect(resolveActivation({ iccid: '8999999999999999999', lpa: null }, stored)).toBeNull();
  });

  it('accepts only image data URLs as the stored QR code', () => {
    expect(isImageDataUrl('data:image/png;base64,iVBORw0KGgo=')).toBe(true);
    expect(isImageDataUrl('javascript:alert(1)')).toBe(false);
    expect(isImageDataUrl('https://evil.example/qr.png')).toBe(false);
    expect(isImageDataUrl(null)).toBe(false);
  });
});
