import { AccountDeleted, ExistingAccountSignupAttempted, SIGNUP_BONUS_POINTS, VerificationCodeIssued } from '@esim/contracts';
import { waitFor } from '@esim/testing';
import { signUp, uniqueEmail } from '../support/accounts';
import de from '../../services/notifications/src/templates/locales/de.json';
import { AccountsSystem, isSignedIn, lastEvent, login, startAccountsSystem } from './accounts-system';

/** Security check 12 (IDOR, mass assignment), profile, settings, email change and deletion. */
describe('profile, settings and account deletion', () => {
  let sys: AccountsSystem;

  beforeAll(async () => {
    sys = await startAccountsSystem();
  });
  afterAll(() => sys?.stop());

  describe('ownership', () => {
    it("user B cannot read or change user A's profile or settings by naming A's id", async () => {
      const alice = sys.client();
      const a = await signUp(alice, sys.mail, { name: 'Alice' });
      const bob = sys.client();
      const b = await signUp(bob, sys.mail, { name: 'Bob' });

      const profile = await bob.patch('/api/user/profile', { id: a.id, userId: a.id, username: 'Hacked' });
      expect(profile.status).toBe(200);
      expect(profile.json().user).toMatchObject({ id: b.id, name: 'Hacked' });
      expect((await bob.patch('/api/user/settings', { userId: a.id, marketingEmails: true })).json().user.id).toBe(b.id);
      expect((await bob.get(`/api/user?id=${a.id}`)).json().id).toBe(b.id);

      const aliceNow = (await alice.get('/api/user')).json();
      expect(aliceNow).toMatchObject({ id: a.id, name: 'Alice', email: a.email });
      expect(aliceNow.settings.marketingEmails).toBe(false);
    });

    it('ignores isAdmin, points and other extra fields at sign-up, in the profile and in settings', async () => {
      const browser = sys.client();
      const user = await signUp(browser, sys.mail);
      // The sign-up bonus arrives by event: wait for it, so that only the extra fields could change the points.
      const before = await waitFor(
        async () => {
          const me = (await browser.get('/api/user')).json();
          return me.points === SIGNUP_BONUS_POINTS ? me : undefined;
        },
        { what: 'the sign-up bonus' },
      );
      await browser.post('/api/register', {
        name: 'X',
        email: uniqueEmail('mass'),
        password: 'long enough password',
        acceptTerms: true,
        acceptPrivacy: true,
        isAdmin: true,
        points: 1e6,
      });
      const extras = { isAdmin: true, points: 999_999, dataGiftedGB: 50, emailVerified: false, createdAt: '2000-01-01T00:00:00.000Z' };
      expect((await browser.patch('/api/user/profile', { username: 'Still Me', ...extras })).status).toBe(200);
      expect((await browser.patch('/api/user/settings', { dataAlerts: false, ...extras })).status).toBe(200);

      const after = (await browser.get('/api/user')).json();
      expect(after).toMatchObject({
        id: user.id,
        name: 'Still Me',
        isAdmin: false,
        dataGiftedGB: 0,
        emailVerified: true,
        createdAt: before.createdAt,
        points: before.points,
      });
      expect((await sys.identityDb.query('SELECT is_admin FROM users WHERE id = $1', [user.id])).rows[0].is_admin).toBe(false);
      expect((await browser.get('/api/admin/users')).status).toBe(403);
    });
  });

  describe('profile', () => {
    it('changes name and phone at once; a blank phone removes it', async () => {
      const browser = sys.client();
      await signUp(browser, sys.mail);
      const res = await browser.patch('/api/user/profile', { username: 'Renamed', phone: '+351 912 345 678' });
      expect(res.status).toBe(200);
      expect(res.json()).toMatchObject({ user: { name: 'Renamed', phone: '+351 912 345 678' }, pendingEmail: null });
      expect((await browser.patch('/api/user/profile', { phone: '' })).json().user.phone).toBeNull();
      expect((await browser.patch('/api/user/profile', { phone: 'call me' })).json().message).toBe('Please enter a valid phone number');
    });

    it('needs the right current password for a new password, and saves nothing otherwise', async () => {
      const browser = sys.client();
      const user = await signUp(browser, sys.mail);
      const missing = await browser.patch('/api/user/profile', { username: 'Nope', newPassword: 'another long one' });
      expect(missing.status).toBe(400);
      const wrong = await browser.patch('/api/user/profile', {
        username: 'Nope',
        currentPassword: 'not it at all',
        newPassword: 'another long one',
      });
      expect(wrong.status).toBe(400);
      expect(wrong.json().message).toBe('Current password is incorrect');
      const mismatch = await browser.patch('/api/user/profile', {
        currentPassword: user.password,
        newPassword: 'another long one',
        confirmPassword: 'another long two',
      });
      expect(mismatch.json().message).toBe('New passwords do not match.');
      const short = await browser.patch('/api/user/profile', { currentPassword: user.password, newPassword: 'short' });
      expect(short.json().message).toBe('Password must be at least 8 characters long');
      expect((await browser.get('/api/user')).json().name).toBe(user.name);
      expect((await login(sys.client(), user.email, user.password)).status).toBe(200);
    });

    it('changes the email only after the code sent to the new address is confirmed', async () => {
      const browser = sys.client();
      const user = await signUp(browser, sys.mail);
      const newEmail = uniqueEmail('moved');
      expect((await browser.patch('/api/user/profile', { email: newEmail })).status).toBe(400);

      const res = await browser.patch('/api/user/profile', { email: newEmail, currentPassword: user.password });
      expect(res.status).toBe(200);
      expect(res.json()).toMatchObject({ pendingEmail: newEmail, user: { email: user.email } });
      const { code } = (await lastEvent(sys, VerificationCodeIssued, newEmail))!;

      expect((await browser.post('/api/user/email/verify', { code: code === '000000' ? '000001' : '000000' })).status).toBe(400);
      const confirmed = await browser.post('/api/user/email/verify', { code });
      expect(confirmed.status).toBe(200);
      expect(confirmed.json().user.email).toBe(newEmail);
      expect((await login(sys.client(), user.email, user.password)).status).toBe(401);
      expect((await login(sys.client(), newEmail, user.password)).status).toBe(200);
    });

    it('tells the old address, in the account language, that the email changed and to what', async () => {
      const browser = sys.client();
      const user = await signUp(browser, sys.mail);
      expect((await browser.patch('/api/user/settings', { locale: 'de' })).status).toBe(200);
      const newEmail = uniqueEmail('moved');
      expect((await browser.patch('/api/user/profile', { email: newEmail, currentPassword: user.password })).status).toBe(200);
      const { code } = (await lastEvent(sys, VerificationCodeIssued, newEmail))!;
      const before = sys.mail.messages.length;
      expect((await browser.post('/api/user/email/verify', { code })).status).toBe(200);

      const notice = await sys.mail.waitForMail(user.email, { after: before });
      expect(notice.subject).toBe(de.emailChanged.subject);
      expect(notice.language).toBe('de');
      expect(notice.text).toContain(de.emailChanged.intro.replace('{{email}}', newEmail));
      expect(sys.mail.mailsTo(newEmail).filter((m) => m.subject === de.emailChanged.subject)).toHaveLength(0);
    });

    it("answers the same for another account's address, tells its owner, and sends no code", async () => {
      const owner = await signUp(sys.client(), sys.mail);
      const browser = sys.client();
      const user = await signUp(browser, sys.mail);
      const ownersSignUpCode = await lastEvent(sys, VerificationCodeIssued, owner.email);
      const res = await browser.patch('/api/user/profile', { email: owner.email, currentPassword: user.password });
      expect(res.status).toBe(200);
      expect(res.json().pendingEmail).toBe(owner.email);
      expect(await lastEvent(sys, VerificationCodeIssued, owner.email)).toEqual(ownersSignUpCode);
      expect(await lastEvent(sys, ExistingAccountSignupAttempted, owner.email)).toMatchObject({ userId: owner.id });
    });
  });

  describe('settings', () => {
    it('saves the toggles sent, keeps the others, and the language', async () => {
      const browser = sys.client();
      await signUp(browser, sys.mail);
      const res = await browser.patch('/api/user/settings', { marketingEmails: true, locale: 'es' });
      expect(res.status).toBe(200);
      expect(res.json().user).toMatchObject({
        locale: 'es',
        settings: {
          emailNotifications: true,
          pushNotifications: true,
          dataAlerts: true,
          marketingEmails: true,
          twoFactorAuth: false,
          privateProfile: false,
        },
      });
      expect((await browser.patch('/api/user/settings', { dataAlerts: 'yes' })).status).toBe(400);
      expect((await browser.patch('/api/user/settings', { locale: 'xx' })).status).toBe(400);
    });
  });

  describe('deletion', () => {
    it('erases personal data at once, ends every session, refuses sign-in, and frees the email for a new account', async () => {
      const laptop = sys.client();
      const user = await signUp(laptop, sys.mail);
      const phone = sys.client();
      expect((await login(phone, user.email, user.password)).status).toBe(200);
      await laptop.patch('/api/user/profile', { phone: '+44 20 7946 0000' });

      expect((await laptop.delete('/api/user/account')).status).toBe(200);
      expect(await isSignedIn(laptop)).toBe(false);
      expect(await isSignedIn(phone)).toBe(false);
      expect((await login(sys.client(), user.email, user.password)).status).toBe(401);

      const { rows } = await sys.identityDb.query('SELECT email, name, phone, password_hash, deleted_at FROM users WHERE id = $1', [
        user.id,
      ]);
      expect(rows[0]).toMatchObject({ email: `deleted-${user.id}@invalid`, name: null, phone: null, password_hash: null });
      expect(rows[0].deleted_at).toBeInstanceOf(Date);
      // AccountDeleted went out: identity hears it too (and then erases its published rows naming the user).
      await waitFor(
        async () => (await sys.identityDb.query('SELECT 1 FROM inbox_events WHERE event_type = $1', [AccountDeleted.routingKey])).rows.length > 0,
        { what: 'AccountDeleted to be published and applied' },
      );
      const left = await sys.identityDb.query(`SELECT 1 FROM outbox_events WHERE published_at IS NOT NULL AND envelope::text LIKE '%' || $1 || '%'`, [user.id]);
      expect(left.rows).toEqual([]);

      const again = await signUp(sys.client(), sys.mail, { email: user.email, password: 'a new life password' });
      expect(again.id).not.toBe(user.id);
      expect((await login(sys.client(), user.email, 'a new life password')).status).toBe(200);
    });
  });
});
