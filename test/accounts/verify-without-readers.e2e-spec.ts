import { VerificationCodeIssued } from '@esim/contracts';
import { uniqueEmail } from '../support/accounts';
import { AccountsSystem, lastEvent, startAccountsSystem } from './accounts-system';

/**
 * Verifying the sign-up code creates the account and signs it in; its answer must not depend on
 * services that only add to what the user sees (points from rewards, gifts from esim). When they
 * are slow the account exists anyway, so a 503 would only make the user retry a spent code.
 */
describe('email verification while rewards and esim do not answer', () => {
  let sys: AccountsSystem;

  beforeAll(async () => {
    sys = await startAccountsSystem({ gatewayEnv: { RPC_TIMEOUT_MS: '1500' } });
  });
  afterAll(() => sys?.stop());

  it('creates the account, signs it in and answers the new user', async () => {
    for (const service of ['rewards', 'esim'] as const) {
      await sys.apps[service]!.close();
      delete sys.apps[service];
    }
    const browser = sys.client();
    const email = uniqueEmail('patient');
    const password = 'a long enough password';
    const form = { name: 'Patient', email, password, acceptTerms: true, acceptPrivacy: true };
    expect((await browser.post('/api/register', form)).status).toBe(200);
    const { code } = (await lastEvent(sys, VerificationCodeIssued, email))!;

    const verified = await browser.post('/api/verify-email', { email, code, password, name: 'Patient', locale: 'es' });
    expect(verified.status).toBe(200);
    expect(verified.json().user).toEqual({
      id: expect.any(String),
      email,
      name: 'Patient',
      emailVerified: true,
      points: 0,
      pendingPoints: 0,
      pendingReleases: [],
      dataGiftedGB: 0,
      iccid: null,
      planTierLastChosen: null,
      lastGiftedAt: null,
      createdAt: expect.any(String),
      isAdmin: false,
      phone: null,
      locale: 'es',
      settings: {
        emailNotifications: true,
        pushNotifications: true,
        dataAlerts: true,
        marketingEmails: false,
        twoFactorAuth: false,
        privateProfile: false,
      },
    });
    const { rows } = await sys.identityDb.query('SELECT id FROM users WHERE email = $1', [email]);
    expect(rows).toEqual([{ id: verified.json().user.id }]);
    // Signed in: a route behind the session guard that needs neither rewards nor esim lets it through.
    expect((await sys.client().post('/api/verify-captcha', { token: 'XXXX.DUMMY.TOKEN.XXXX' })).status).toBe(401);
    expect((await browser.post('/api/verify-captcha', { token: 'XXXX.DUMMY.TOKEN.XXXX' })).status).toBe(200);
  });
});
