import { plainIpAddress } from './ip-address';

describe('plainIpAddress', () => {
  it('writes an IPv4-mapped IPv6 address as plain IPv4, whatever the case of the prefix', () => {
    expect(plainIpAddress('::ffff:203.0.113.5')).toBe('203.0.113.5');
    expect(plainIpAddress('::FFFF:198.51.100.7')).toBe('198.51.100.7');
  });

  it('leaves every other address (and anything that is not one) as it is', () => {
    for (const address of ['203.0.113.5', '2001:db8::1', '::ffff:abcd:1', '::1', '::ffff:1.2.3', 'not-an-ip', ''])
      expect(plainIpAddress(address)).toBe(address);
  });
});
