import { addressNetwork } from './client-network';

describe('the network a per-IP limit counts', () => {
  it('keeps an IPv4 address, also when the socket reports it IPv4-mapped', () => {
    expect(addressNetwork('203.0.113.7')).toBe('203.0.113.7');
    expect(addressNetwork('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressNetwork('203.0.113.8')).not.toBe(addressNetwork('203.0.113.7'));
  });

  it('counts every address of one IPv6 /64 as one client, however it is written', () => {
    const network = addressNetwork('2001:db8:1:2::1');
    expect(network).toBe('2001:db8:1:2::/64');
    for (const same of ['2001:db8:1:2:ffff:ffff:ffff:ffff', '2001:0DB8:0001:0002:0:0:0:abcd', '2001:db8:1:2:a:b:c:d']) {
      expect(addressNetwork(same)).toBe(network);
    }
  });

  it('tells neighbouring /64s apart', () => {
    expect(addressNetwork('2001:db8:1:3::1')).not.toBe(addressNetwork('2001:db8:1:2::1'));
    expect(addressNetwork('2001:db8:2:2::1')).not.toBe(addressNetwork('2001:db8:1:2::1'));
  });

  it('leaves anything that is not an address alone', () => {
    expect(addressNetwork('')).toBe('');
    expect(addressNetwork('not an ip')).toBe('not an ip');
  });
});
