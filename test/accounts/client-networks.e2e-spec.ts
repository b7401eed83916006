import { uniqueEmail } from '../support/accounts';
import { AccountsSystem, login, startAccountsSystem } from './accounts-system';

const IP_LIMIT = 4;

/**
 * Security check 8 over IPv6: one subscriber holds a whole /64, so the per-IP sign-in limit counts
 * the /64, not each address in it. Behind a trusted proxy, as in production.
 */
describe('per-network sign-in limit', () => {
  let sys: AccountsSystem;

  beforeAll(async () => {
    sys = await startAccountsSystem({ gatewayEnv: { TRUST_PROXY: 'loopback', RATE_LIMIT_LOGIN_IP: `${IP_LIMIT}/600` } });
  });
  afterAll(() => sys?.stop());

  const from = (address: string) => login(sys.client(), uniqueEmail('guess'), 'wrong password', { 'x-forwarded-for': address });

  it('counts every address of one IPv6 /64 together, and other networks apart', async () => {
    for (let i = 1; i <= IP_LIMIT; i++) expect((await from(`2001:db8:aa:1::${i.toString(16)}`)).status).toBe(401);
    // A fresh address of the same /64, however it is written, is the same client.
    for (const address of ['2001:db8:aa:1:ffff:1:2:3', '2001:0db8:00aa:0001::beef']) {
      const res = await from(address);
      expect(res.status).toBe(429);
      expect(res.json().message).toBe('Too many attempts. Please try again later.');
    }
    expect((await from('2001:db8:aa:2::1')).status).toBe(401);
    expect((await from('203.0.113.9')).status).toBe(401);
  });
});
