import { iccidSchema } from '../http/redemption.http';
import { maskIccid, passesLuhn } from './iccid';

describe('ICCIDs', () => {
  it('accepts 19 or 20 digits starting with 89, whatever the check digit', () => {
    for (const ok of ['8900000000000000001', '89000000000000000019', ' 8944500000000000000 ']) expect(iccidSchema.safeParse(ok).success).toBe(true);
    for (const bad of ['890000000000000001', '890000000000000000012', '9900000000000000001', '89000000000000000a1', '']) {
      expect(iccidSchema.safeParse(bad).success).toBe(false);
    }
  });

  it('tells a valid Luhn check digit from a wrong one (only logged, never refused)', () => {
    expect(passesLuhn('89014103211118510720')).toBe(true);
    expect(passesLuhn('89014103211118510721')).toBe(false);
    expect(passesLuhn('8900000000000000001')).toBe(false);
    expect(passesLuhn('79927398713')).toBe(true);
    expect(passesLuhn('x')).toBe(false);
  });

  it('masks an ICCID to its last 4 digits', () => {
    expect(maskIccid('8900000000000000001')).toBe('••••0001');
    expect(maskIccid(' 89012345678901234567 ')).toBe('••••4567');
  });
});
