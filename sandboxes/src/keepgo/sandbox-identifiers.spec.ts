import { KEEPGO_DEMO_ICCID } from '@esim/esim/dist/keepgo/keepgo-api';
import { luhnCheckDigit, luhnValid, newSandboxIccid, newSandboxLpaCode } from './sandbox-identifiers';

describe('sandbox eSIM identifiers', () => {
  it('computes Luhn check digits (ITU-T E.118)', () => {
    expect(luhnCheckDigit('7992739871')).toBe(3);
    expect(luhnValid('79927398713')).toBe(true);
    expect(luhnValid('79927398710')).toBe(false);
    // The spec's demo ICCID has no valid check digit; real-world ICCIDs often do not either.
    expect(luhnValid(KEEPGO_DEMO_ICCID)).toBe(false);
  });

  it('issues 19-digit ICCIDs starting with 89 with a valid check digit, all different', () => {
    const iccids = Array.from({ length: 200 }, newSandboxIccid);
    for (const iccid of iccids) {
      expect(iccid).toMatch(/^89\d{17}$/);
      expect(luhnValid(iccid)).toBe(true);
    }
    expect(new Set(iccids).size).toBe(200);
  });

  it('issues SGP.22 activation codes: LPA:1$<SM-DP+ FQDN>$<matching id>', () => {
    const [prefix, address, matchingId, ...rest] = newSandboxLpaCode().split('$');
    expect(prefix).toBe('LPA:1');
    expect(address).toMatch(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/);
    expect(matchingId).toMatch(/^[0-9A-Z]{5}(-[0-9A-Z]{5}){3}$/);
    expect(rest).toEqual([]);
  });
});
