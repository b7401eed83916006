import { ERROR_DOMAINS, ERROR_REASONS, ERROR_STATUS, ERRORS, GENERIC_REASON, isErrorReason, reasonsWithStatus } from './index';

describe('the error vocabulary', () => {
  it('declares each reason in exactly one domain', () => {
    const seen = new Map<string, string[]>();
    for (const [domain, reasons] of Object.entries(ERROR_DOMAINS)) for (const r of Object.keys(reasons)) seen.set(r, [...(seen.get(r) ?? []), domain]);
    const twice = [...seen].filter(([, domains]) => domains.length > 1);
    expect(twice).toEqual([]);
    expect(ERROR_REASONS.length).toBe(seen.size);
  });

  it('gives each reason the status of its code, and names reasons in snake_case', () => {
    for (const reason of ERROR_REASONS) {
      const { code, status, audience } = ERRORS[reason];
      expect({ reason, status }).toEqual({ reason, status: ERROR_STATUS[code] });
      expect(['user', 'operator', 'internal']).toContain(audience);
      expect(reason).toMatch(/^[a-z][a-z0-9_]*$/);
    }
  });

  it("has a generic reason of each code's own status", () => {
    for (const [code, reason] of Object.entries(GENERIC_REASON)) expect({ code, of: ERRORS[reason].code }).toEqual({ code, of: code });
    expect(reasonsWithStatus(409)).toContain('insufficient_points');
    expect(isErrorReason('insufficient_points')).toBe(true);
    expect(isErrorReason('insufficent_points')).toBe(false);
    expect(isErrorReason('toString')).toBe(false);
  });
});
