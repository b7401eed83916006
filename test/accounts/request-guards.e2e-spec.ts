import { ExistingAccountSignupAttempted, VerificationCodeIssued } from '@esim/contracts';
import { PasswordHasher } from '../../services/identity/src/credentials/password-hasher';
import { signUp, uniqueEmail } from '../support/accounts';
import type { HttpClient, HttpResponse } from '../support/http-client';
import { AccountsSystem, isSignedIn, lastEvent, login, startAccountsSystem } from './accounts-system';

const sameAnswer = (a: HttpResponse, b: HttpResponse) =>
  expect({ status: a.status, body: a.json() }).toEqual({ status: b.status, body: b.json() });

/** An argon2id hash's algorithm, version and cost, up to its salt. */
const ARGON2_COST = /^\$argon2id\$v=\d+\$m=\d+,t=\d+,p=\d+\$/;

/** Security checks 6 and 7, and the spec's validation messages word for word. */
describe('request guards', () => {
  let sys: AccountsSystem;

  beforeAll(async () => {
    sys = await startAccountsSystem();
  });
  afterAll(() => sys?.stop());

  describe('CSRF', () => {
    const bodies = [
      ['a form', 'application/x-www-form-urlencoded', 'username=a%40b.c&password=x'],
      ['multipart', 'multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="username"\r\n\r\na@b.c\r\n--x--\r\n'],
      ['text/plain', 'text/plain', '{"username":"a@b.c","password":"x"}'],
    ] as const;

    it.each(bodies)('refuses %s body with 415 on state-changing routes, signed in or not', async (_kind, type, body) => {
      const victim = sys.client();
      await signUp(victim, sys.mail);
      for (const [method, path] of [
        ['POST', '/api/login'],
        ['POST', '/api/register'],
        ['PATCH', '/api/user/profile'],
        ['DELETE', '/api/user/account'],
        ['POST', '/api/logout'],
      ]) {
        const res = await victim.request(method, path, undefined, { headers: { 'content-type': type }, body });
        expect({ path, status: res.status }).toEqual({ path, status: 415 });
      }
      expect(await isSignedIn(victim)).toBe(true);
    });

    it('refuses a foreign Origin with 403, and the account is untouched', async () => {
      const victim = sys.client();
      await signUp(victim, sys.mail);
      const evil = { headers: { origin: 'https://evil.example' } };
      expect((await victim.delete('/api/user/account', undefined, evil)).status).toBe(403);
      expect((await victim.patch('/api/user/profile', { username: 'Pwned' }, evil)).status).toBe(403);
      expect((await victim.post('/api/login', { username: 'a@b.c', password: 'whatever' }, evil)).status).toBe(403);
      const me = await victim.get('/api/user');
      expect(me.status).toBe(200);
      expect(me.json().name).not.toBe('Pwned');
      expect((await victim.patch('/api/user/profile', { username: 'Mine' }, { headers: { origin: sys.url } })).status).toBe(200);
    });
  });

  describe('known and unknown emails look the same', () => {
    it('sign-up: same status and body; the owner is told instead of getting a code', async () => {
      const owner = await signUp(sys.client(), sys.mail);
      const fresh = uniqueEmail('fresh');
      const form = { name: 'Someone', password: 'long enough password', acceptTerms: true, acceptPrivacy: true };
      const known = await sys.client().post('/api/register', { ...form, email: owner.email });
      const unknown = await sys.client().post('/api/register', { ...form, email: fresh });
      expect(known.status).toBe(200);
      expect({ ...known.json(), email: 'x' }).toEqual({ ...unknown.json(), email: 'x' });
      expect(await lastEvent(sys, ExistingAccountSignupAttempted, owner.email)).toMatchObject({ userId: owner.id });
      expect(await lastEvent(sys, VerificationCodeIssued, fresh)).toBeDefined();
      const codesToOwner = await sys.identityDb.query('SELECT 1 FROM email_verification_codes WHERE email = $1 AND NOT used', [
        owner.email,
      ]);
      expect(codesToOwner.rowCount).toBe(0);
    });

    it('login: same 401 and body for a wrong password and an unknown email, in comparable time', async () => {
      const user = await signUp(sys.client(), sys.mail);
      const wrong = await login(sys.client(), user.email, 'not the password');
      const unknown = await login(sys.client(), uniqueEmail('nobody'), 'not the password');
      expect(wrong.status).toBe(401);
      sameAnswer(wrong, unknown);
      expect(wrong.json().message).toBe('Invalid email or password');

      // An unknown email still costs one argon2 verification, against a hash of the same cost as a
      // user's: what identity's hasher was asked to verify, for each answer.
      const verify = jest.spyOn(sys.apps.identity!.get(PasswordHasher), 'verify');
      const checked = async (email: string) => {
        verify.mockClear();
        await login(sys.client(), email, 'not the password');
        return verify.mock.calls.map(([hash]) => ARGON2_COST.exec(hash)?.[0]);
      };
      try {
        const [userCost] = await checked(user.email);
        expect(userCost).toMatch(ARGON2_COST);
        expect(await checked(uniqueEmail('nobody'))).toEqual([userCost]);
      } finally {
        verify.mockRestore();
      }

      // And it takes as long: without that verification it answers in under a third of the time. The
      // fastest of five answers each, interleaved: a busy host slows some answers of either kind by
      // several times, not every one of them.
      const timed = async (email: string) => {
        const start = process.hrtime.bigint();
        await login(sys.client(), email, 'not the password');
        return Number(process.hrtime.bigint() - start) / 1e6;
      };
      const known: number[] = [];
      const nobody: number[] = [];
      for (let i = 0; i < 5; i++) {
        known.push(await timed(user.email));
        nobody.push(await timed(uniqueEmail('nobody')));
      }
      expect(Math.min(...nobody)).toBeGreaterThan(Math.min(...known) * 0.5);
    });

    it('forgot password: same status and body', async () => {
      const user = await signUp(sys.client(), sys.mail);
      const known = await sys.client().post('/api/forgot-password', { email: user.email });
      const unknown = await sys.client().post('/api/forgot-password', { email: uniqueEmail('nobody') });
      expect(known.status).toBe(200);
      sameAnswer(known, unknown);
    });
  });

  describe('characters that cannot be stored', () => {
    const form = { name: 'Ana', email: 'ana@example.test', password: 'long enough password', acceptTerms: true, acceptPrivacy: true };
    const refused = async (res: HttpResponse) => {
      expect({ status: res.status, code: res.json().code }).toEqual({ status: 400, code: 'validation' });
      return res.json().message as string;
    };

    it('refuses a NUL byte in any string field with a 400, never a 500', async () => {
      const browser = sys.client();
      const user = await signUp(browser, sys.mail);
      const nul = (s: string) => `${s.slice(0, 2)}\u0000${s.slice(2)}`;
      const cases: Array<[string, string, Record<string, unknown>, HttpClient?]> = [
        ['POST', '/api/register', { ...form, email: uniqueEmail('nul'), name: nul('Ana') }],
        ['POST', '/api/login', { username: nul(user.email), password: user.password }],
        ['POST', '/api/login', { username: user.email, password: nul(user.password) }],
        ['POST', '/api/verify-email', { email: uniqueEmail('nul'), code: '123456', password: form.password, name: nul('Ana') }],
        ['POST', '/api/resend-verification', { email: nul(uniqueEmail('nul')) }],
        ['POST', '/api/forgot-password', { email: nul(user.email) }],
        ['POST', '/api/reset-password', { token: nul('x'.repeat(43)), newPassword: form.password }],
        ['PATCH', '/api/user/profile', { username: nul('Ana') }, browser],
        ['PATCH', '/api/user/profile', { currentPassword: nul(user.password), newPassword: 'another long one' }, browser],
        ['POST', '/api/user/email/verify', { code: nul('123456') }, browser],
      ];
      for (const [method, path, body, client] of cases) {
        const res = await (client ?? sys.client()).request(method, path, body);
        expect({ path, field: Object.keys(body).find((k) => String(body[k]).includes('\u0000')), status: res.status }).toMatchObject({
          status: 400,
        });
        await refused(res);
      }
      expect((await browser.get('/api/user')).json().name).toBe(user.name);
      expect((await login(sys.client(), user.email, user.password)).status).toBe(200);
    });

    it('refuses line breaks in names, at sign-up and in the profile', async () => {
      const browser = sys.client();
      const user = await signUp(browser, sys.mail);
      const forged = 'Ana\r\nBcc: everyone@example.test';
      expect(await refused(await sys.client().post('/api/register', { ...form, email: uniqueEmail('crlf'), name: forged }))).toBe(
        'Name cannot contain line breaks or other control characters',
      );
      expect(await refused(await browser.patch('/api/user/profile', { username: 'Ana\nB' }))).toBe(
        'Name cannot contain line breaks or other control characters',
      );
      expect((await browser.get('/api/user')).json().name).toBe(user.name);
    });
  });

  describe("the spec's validation messages", () => {
    const valid = { name: 'Ana', email: 'ana@example.test', password: 'long enough password', acceptTerms: true, acceptPrivacy: true };
    const message = async (path: string, body: unknown) => {
      const res = await sys.client().post(path, body);
      expect(res.status).toBe(400);
      return res.json().message;
    };

    it('word for word', async () => {
      expect(await message('/api/register', { ...valid, acceptTerms: false })).toBe('You must accept the Terms of Service to continue');
      expect(await message('/api/register', { ...valid, acceptPrivacy: false })).toBe('You must accept the Privacy Policy to continue');
      expect(await message('/api/register', { ...valid, password: 'short' })).toBe('Password must be at least 8 characters long');
      expect(await message('/api/verify-email', { email: valid.email, code: '12345', password: valid.password, name: 'Ana' })).toBe(
        'Verification code must be 6 digits',
      );
      expect(await message('/api/forgot-password', { email: 'not-an-email' })).toBe('Please enter a valid email address');
      expect(await message('/api/reset-password', { token: 'x'.repeat(43), newPassword: 'short' })).toBe(
        'Password must be at least 8 characters long',
      );
      expect(await message('/api/reset-password', { token: 'x'.repeat(43), newPassword: 'long enough password' })).toBe(
        'Invalid or expired reset link',
      );
    });
  });
});
