import { signUp, uniqueEmail } from '../support/accounts';
import type { HttpResponse } from '../support/http-client';
import { AccountsSystem, login, startAccountsSystem } from './accounts-system';

const ACCOUNT_LIMIT = 3;
const IP_LIMIT = 8;
const TOO_MANY = { message: 'Too many attempts. Please try again later.', code: 'rate_limited' };

const expectTooMany = (res: HttpResponse) => {
  expect(res.status).toBe(429);
  expect(res.json()).toMatchObject(TOO_MANY);
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
};

/**
 * Security check 8: sign-in attempts count per account and per client IP, independently, and the
 * client IP is the socket's (a forged X-Forwarded-For buys nothing without TRUST_PROXY). Also
 * the sign-up, resend and forgot-password limits. Every request here comes from 127.0.0.1.
 */
describe('rate limits', () => {
  let sys: AccountsSystem;

  beforeAll(async () => {
    sys = await startAccountsSystem({
      gatewayEnv: {
        RATE_LIMIT_LOGIN_ACCOUNT: `${ACCOUNT_LIMIT}/600`,
        RATE_LIMIT_LOGIN_IP: `${IP_LIMIT}/600`,
        RATE_LIMIT_SIGNUP_EMAIL: '2/600',
        RATE_LIMIT_FORGOT_EMAIL: '2/600',
      },
    });
  });
  afterAll(() => sys?.stop());

  it('locks one account after its failures while other accounts on the same IP still sign in, then locks the IP', async () => {
    const target = await signUp(sys.client(), sys.mail);
    const bystander = await signUp(sys.client(), sys.mail);
    const late = await signUp(sys.client(), sys.mail);

    for (let i = 0; i < ACCOUNT_LIMIT; i++) expect((await login(sys.client(), target.email, 'wrong password')).status).toBe(401);
    // Even the right password is refused now: the account bucket is spent, the IP bucket is not.
    expectTooMany(await login(sys.client(), target.email, target.password));
    expect((await login(sys.client(), bystander.email, bystander.password)).status).toBe(200);

    // Failures over many accounts, each claiming another client address, all count for 127.0.0.1.
    let refusedAfter = 0;
    for (let i = 1; i <= IP_LIMIT; i++) {
      const res = await login(sys.client(), uniqueEmail('spray'), 'wrong password', { 'x-forwarded-for': `203.0.113.${i}` });
      if (res.status === 429) {
        refusedAfter = i;
        expectTooMany(res);
        break;
      }
      expect(res.status).toBe(401);
    }
    expect(refusedAfter).toBeGreaterThan(0);
    expectTooMany(await login(sys.client(), late.email, late.password, { 'x-forwarded-for': '198.51.100.7' }));
  });

  it('allows one verification code resend a minute per email, the same for unknown and pending emails', async () => {
    const pending = uniqueEmail('pending');
    await sys
      .client()
      .post('/api/register', { name: 'P', email: pending, password: 'long enough password', acceptTerms: true, acceptPrivacy: true });
    for (const email of [pending, uniqueEmail('nobody')]) {
      const first = await sys.client().post('/api/resend-verification', { email });
      expect(first.status).toBe(200);
      expectTooMany(await sys.client().post('/api/resend-verification', { email }));
    }
  });

  it('limits sign-ups and reset requests per email', async () => {
    const email = uniqueEmail('busy');
    const form = { name: 'B', email, password: 'long enough password', acceptTerms: true, acceptPrivacy: true };
    for (let i = 0; i < 2; i++) expect((await sys.client().post('/api/register', form)).status).toBe(200);
    expectTooMany(await sys.client().post('/api/register', form));

    for (let i = 0; i < 2; i++) expect((await sys.client().post('/api/forgot-password', { email })).status).toBe(200);
    expectTooMany(await sys.client().post('/api/forgot-password', { email }));
  });
});
