import { extractCode, waitFor } from '@esim/testing';
import { SIGNUP_BONUS_POINTS } from '@esim/contracts';
import { uniqueEmail } from '../support/accounts';
import { startSystem, System } from '../support/system';

/**
 * The first journey through every layer: gateway, identity, notifications (BullMQ + real SMTP),
 * rewards (ledger via the UserRegistered event), esim, Postgres, RabbitMQ and Redis.
 */
describe('sign up, verify, see the 100 MB bonus', () => {
  let sys: System;

  beforeAll(async () => {
    sys = await startSystem({ services: ['identity', 'rewards', 'esim', 'notifications'] });
  });
  afterAll(() => sys?.stop());

  it('signs up over HTTP, verifies with the emailed code, sees points: 100, then logs out', async () => {
    const client = sys.client();
    const email = uniqueEmail('journey');
    const password = 'a long enough password';

    const registered = await client.post('/api/register', { name: 'Maria', email, password, acceptTerms: true, acceptPrivacy: true, locale: 'pt' });
    expect(registered.status).toBe(200);
    expect(registered.json()).toMatchObject({ requiresVerification: true, email });
    expect(client.cookies.size).toBe(0); // nobody is signed in before verification

    const mail = await sys.mail.waitForMail(email);
    expect(mail.subject).toMatch(/código/i); // the user's chosen language (pt)
    const code = extractCode(mail);

    const verified = await client.post('/api/verify-email', { email, code, password, name: 'Maria' });
    expect(verified.status).toBe(200);
    expect(verified.json().user).toMatchObject({ email, name: 'Maria', emailVerified: true, isAdmin: false });
    const cookie = verified.headers.getSetCookie().join(';');
    expect(cookie).toMatch(/HttpOnly/i);

    // The bonus arrives through the outbox, the broker and the rewards inbox.
    const user = await waitFor(async () => {
      const res = await client.get('/api/user');
      return res.status === 200 && res.json().points === SIGNUP_BONUS_POINTS ? res.json() : undefined;
    }, { what: 'the sign-up bonus', timeoutMs: 15_000 });
    expect(user).toEqual({
      id: expect.any(String),
      email,
      name: 'Maria',
      emailVerified: true,
      points: 100,
      pendingPoints: 0,
      pendingReleases: [],
      dataGiftedGB: 0,
      iccid: null,
      planTierLastChosen: null,
      lastGiftedAt: null,
      createdAt: expect.any(String),
      isAdmin: false,
      phone: null,
      locale: 'pt',
      settings: { emailNotifications: true, pushNotifications: true, dataAlerts: true, marketingEmails: false, twoFactorAuth: false, privateProfile: false },
    });

    expect((await client.post('/api/logout')).status).toBe(200);
    const after = await client.get('/api/user');
    expect(after.status).toBe(401);
  });

  it('answers 401 to a visitor and 400 with the spec message to an invalid sign-up', async () => {
    const client = sys.client();
    expect((await client.get('/api/user')).status).toBe(401);
    const res = await client.post('/api/register', { name: 'X', email: uniqueEmail(), password: 'long enough pw', acceptTerms: false, acceptPrivacy: true });
    expect(res.status).toBe(400);
    expect(res.json().message).toBe('You must accept the Terms of Service to continue');
  });
});
