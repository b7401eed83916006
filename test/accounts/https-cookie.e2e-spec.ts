import { extractCode } from '@esim/testing';
import { uniqueEmail } from '../support/accounts';
import { AccountsSystem, startAccountsSystem } from './accounts-system';

const PUBLIC_URL = 'https://app.example.test';

/** Security check 2 behind a TLS-terminating proxy: the cookie is Secure and __Host- prefixed. */
describe('session cookie over HTTPS', () => {
  let sys: AccountsSystem;

  beforeAll(async () => {
    sys = await startAccountsSystem({ env: { PUBLIC_URL }, gatewayEnv: { TRUST_PROXY: 'loopback' } });
  });
  afterAll(() => sys?.stop());

  it('is named __Host-sid, Secure, HttpOnly, SameSite, Path=/ and without Domain', async () => {
    const client = sys.client();
    const headers = { 'x-forwarded-proto': 'https', origin: PUBLIC_URL };
    const email = uniqueEmail('https');
    const password = 'a long enough password';
    expect(
      (await client.post('/api/register', { name: 'Tls', email, password, acceptTerms: true, acceptPrivacy: true }, { headers })).status,
    ).toBe(200);
    const code = extractCode(await sys.mail.waitForMail(email));
    const verified = await client.post('/api/verify-email', { email, code, password, name: 'Tls' }, { headers });
    expect(verified.status).toBe(200);

    const [cookie] = verified.headers.getSetCookie();
    expect(cookie).toMatch(/^__Host-sid=/);
    expect(cookie).toMatch(/;\s*Secure/i);
    expect(cookie).toMatch(/;\s*HttpOnly/i);
    expect(cookie).toMatch(/;\s*SameSite=(Lax|Strict)/i);
    expect(cookie).toMatch(/;\s*Path=\/(;|$)/i);
    expect(cookie).not.toMatch(/;\s*Domain=/i);
    expect((await client.get('/api/user', { headers })).status).toBe(200);
  });
});
