import type { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  ExistingAccountSignupAttempted,
  IdentityAdminRpc,
  IdentityRpc,
  IdentityUser,
  PasswordResetAsked,
  PasswordResetRequested,
  VerificationCodeIssued,
} from '@esim/contracts';
import { RequestContext, RpcClient } from '@esim/platform';
import { TEST_AMQP_URL, TestNamespace, waitFor } from '@esim/testing';
import { AdminEmailsBootstrap } from './admin/admin-emails.bootstrap';
import { startIdentity } from './app';

const PASSWORD = 'long enough password';
const OPS = 'ops@example.test';

/** The identity service alone over its real RPC queue: races and rules the gateway cannot show. */
describe('identity service', () => {
  const ns = new TestNamespace();
  let app: INestApplication;
  let rpc: RpcClient;
  let db: DataSource;
  let n = 0;
  const email = (label: string) => `${label}-${++n}-${ns.id}@example.test`;

  beforeAll(async () => {
    app = await startIdentity(ns.env('identity', { ADMIN_EMAILS: OPS.toUpperCase() }));
    rpc = new RpcClient({ exchange: `${ns.id}.events`, queuePrefix: `${ns.id}.`, url: TEST_AMQP_URL, timeoutMs: 10_000 });
    db = app.get(DataSource);
  });
  afterAll(async () => {
    await rpc?.close();
    await app?.close();
    await ns.cleanup();
  });

  const events = async (routingKey: string, address: string) =>
    (
      await db.query(`SELECT envelope FROM outbox_events WHERE routing_key = $1 AND envelope->'payload'->>'email' = $2 ORDER BY seq`, [
        routingKey,
        address,
      ])
    ).map((r: { envelope: { payload: Record<string, unknown> } }) => r.envelope.payload);
  const lastCode = async (address: string) => (await events(VerificationCodeIssued.routingKey, address)).at(-1)?.code as string;
  const openCodes = async (address: string) =>
    (await db.query('SELECT id FROM email_verification_codes WHERE email = $1 AND NOT used AND replaced_at IS NULL', [address])).length;
  const as = <T>(userId: string, call: () => Promise<T>) => RequestContext.run({ userId }, call);
  const createAccount = async (address: string): Promise<IdentityUser> => {
    await rpc.call(IdentityRpc.register, { email: address, name: 'Ida', locale: 'en' });
    return (
      await rpc.call(IdentityRpc.verifyEmail, {
        email: address,
        code: await lastCode(address),
        password: PASSWORD,
        name: 'Ida',
        locale: 'en',
      })
    ).user;
  };

  describe('sign-up', () => {
    it('leaves exactly one open code when the same email registers many times at once', async () => {
      const address = email('parallel');
      await Promise.all(Array.from({ length: 8 }, () => rpc.call(IdentityRpc.register, { email: address, name: 'P', locale: 'en' })));
      expect(await openCodes(address)).toBe(1);
    });

    it('creates one account when the right code arrives twice at once', async () => {
      const address = email('twice');
      await rpc.call(IdentityRpc.register, { email: address, name: 'T', locale: 'en' });
      const code = await lastCode(address);
      const results = await Promise.allSettled(
        [0, 1].map(() => rpc.call(IdentityRpc.verifyEmail, { email: address, code, password: PASSWORD, name: 'T', locale: 'en' })),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      expect((await db.query('SELECT count(*)::int AS c FROM users WHERE email = $1', [address]))[0].c).toBe(1);
    });

    it('tells an existing account owner instead of issuing a code', async () => {
      const user = await createAccount(email('owner'));
      const codesBefore = (await events(VerificationCodeIssued.routingKey, user.email)).length;
      expect(await rpc.call(IdentityRpc.register, { email: user.email, name: 'Other', locale: 'pt' })).toEqual({ email: user.email });
      expect(await events(VerificationCodeIssued.routingKey, user.email)).toHaveLength(codesBefore);
      expect((await events(ExistingAccountSignupAttempted.routingKey, user.email)).at(-1)).toMatchObject({ userId: user.id, locale: 'en' });
    });

    it('spaces resends a minute apart, and sends nothing without a pending sign-up', async () => {
      const address = email('resend');
      await rpc.call(IdentityRpc.register, { email: address, name: 'R', locale: 'en' });
      await rpc.call(IdentityRpc.resendVerification, { email: address, locale: 'en' });
      await expect(rpc.call(IdentityRpc.resendVerification, { email: address, locale: 'en' })).rejects.toMatchObject({
        code: 'rate_limited',
      });

      const nobody = email('nobody');
      expect(await rpc.call(IdentityRpc.resendVerification, { email: nobody, locale: 'en' })).toEqual({ email: nobody });
      expect(await events(VerificationCodeIssued.routingKey, nobody)).toHaveLength(0);
    });
  });

  describe('sign-in', () => {
    it('answers the same unauthorized error for a wrong password and an unknown email', async () => {
      const user = await createAccount(email('login'));
      const wrong = await rpc.call(IdentityRpc.login, { email: user.email, password: 'wrong password' }).catch((e: unknown) => e);
      const unknown = await rpc.call(IdentityRpc.login, { email: email('ghost'), password: 'wrong password' }).catch((e: unknown) => e);
      expect(wrong).toMatchObject({ code: 'unauthorized', message: 'Invalid email or password' });
      expect(unknown).toMatchObject({ code: (wrong as { code: string }).code, message: (wrong as Error).message });
      expect((await rpc.call(IdentityRpc.login, { email: user.email.toUpperCase(), password: PASSWORD })).user.id).toBe(user.id);
    });
  });

  describe('password reset requests', () => {
    const outboxRows = async () =>
      (await db.query('SELECT routing_key FROM outbox_events ORDER BY seq')).map((r: { routing_key: string }) => r.routing_key);

    it('answers a known and an unknown address after the same write, then issues a link to the known one only', async () => {
      const user = await createAccount(email('forgetful'));
      const nobody = email('nobody');
      for (const address of [user.email, nobody]) {
        const before = await outboxRows();
        expect(await rpc.call(IdentityRpc.forgotPassword, { email: address })).toEqual({});
        const written: string[] = (await outboxRows()).slice(before.length);
        // What the answer waited for: one recorded request, whoever asked (the link may follow at once).
        expect(written.filter((k) => k === PasswordResetAsked.routingKey)).toHaveLength(1);
      }
      const link = await waitFor(async () => (await events(PasswordResetRequested.routingKey, user.email))[0], { what: 'the reset link' });
      expect(link).toMatchObject({ userId: user.id, locale: 'en' });
      expect(new URL(link.resetUrl as string).searchParams.get('token')).toMatch(/^[A-Za-z0-9_-]{43}$/);
      // The unknown address was looked up and dropped: no token, no link, ever. Its request has
      // been handled (identity's inbox holds it) in the same transaction that would have written the link.
      const [{ id: asked }] = await db.query(`SELECT envelope->>'id' AS id FROM outbox_events WHERE routing_key = $1 AND envelope->'payload'->>'email' = $2`, [
        PasswordResetAsked.routingKey,
        nobody,
      ]);
      await waitFor(async () => (await db.query('SELECT 1 FROM inbox_events WHERE event_id = $1', [asked])).length === 1, {
        what: 'the request for the unknown address handled',
      });
      expect(await events(PasswordResetRequested.routingKey, nobody)).toHaveLength(0);
      expect((await db.query('SELECT count(*)::int AS n FROM password_reset_tokens WHERE user_id = $1 AND NOT used', [user.id]))[0].n).toBe(
        1,
      );
    });
  });

  describe('acting user', () => {
    it('refuses self-service calls that name no acting user', async () => {
      await expect(rpc.call(IdentityRpc.updateSettings, { settings: { dataAlerts: false } })).rejects.toMatchObject({
        code: 'unauthorized',
      });
      await expect(rpc.call(IdentityRpc.deleteAccount, {})).rejects.toMatchObject({ code: 'unauthorized' });
      await expect(rpc.call(IdentityRpc.getVersionedUser, {})).rejects.toMatchObject({ code: 'unauthorized' });
      expect(await rpc.call(IdentityRpc.isAdmin, {})).toEqual({ isAdmin: false });
      await expect(rpc.call(IdentityAdminRpc.getUsers, { userIds: [] })).rejects.toMatchObject({ code: 'unauthorized' });
    });

    it('reads the acting user from meta, never from the request', async () => {
      const user = await createAccount(email('me'));
      const other = await createAccount(email('them'));
      // A userId slipped into the request (as the old contract had it) is dropped by the schema.
      const asked = { userId: other.id } as unknown as Record<string, never>;
      expect((await as(user.id, () => rpc.call(IdentityRpc.getVersionedUser, asked))).user.id).toBe(user.id);
      expect(await as(user.id, () => rpc.call(IdentityRpc.isAdmin, asked))).toEqual({ isAdmin: false });
    });

    it('lists users only for an acting admin, checked here as well as at the gateway', async () => {
      const member = await createAccount(email('member'));
      await expect(as(member.id, () => rpc.call(IdentityAdminRpc.getUsers, { userIds: [member.id] }))).rejects.toMatchObject({
        code: 'forbidden',
      });
    });

    it('keeps the email when the new address became an account before the code was confirmed', async () => {
      const user = await createAccount(email('mover'));
      const target = email('contested');
      await as(user.id, () => rpc.call(IdentityRpc.updateProfile, { email: target, currentPassword: PASSWORD }));
      const code = await lastCode(target);
      await createAccount(target);
      await expect(as(user.id, () => rpc.call(IdentityRpc.confirmEmailChange, { code }))).rejects.toMatchObject({ code: 'validation' });
      expect((await as(user.id, () => rpc.call(IdentityRpc.getVersionedUser, {}))).user.email).toBe(user.email);
    });
  });

  describe('admins', () => {
    it('makes a listed email an admin when the account is created and again at start-up', async () => {
      const ops = await createAccount(OPS);
      expect(ops.isAdmin).toBe(true);
      await db.query('UPDATE users SET is_admin = false WHERE id = $1', [ops.id]);
      expect(await as(ops.id, () => rpc.call(IdentityRpc.isAdmin, {}))).toEqual({ isAdmin: false });
      await app.get(AdminEmailsBootstrap).onApplicationBootstrap();
      expect(await as(ops.id, () => rpc.call(IdentityRpc.isAdmin, {}))).toEqual({ isAdmin: true });
      expect((await as(ops.id, () => rpc.call(IdentityAdminRpc.getUsers, { userIds: [ops.id] }))).users.map((u) => u.id)).toEqual([ops.id]);
    });

    it('forgets a deleted account everywhere: not found, not admin, not listed, email free', async () => {
      const admin = (await db.query('SELECT id FROM users WHERE email = $1', [OPS]))[0] ?? (await createAccount(OPS));
      const user = await createAccount(email('leaver'));
      await as(user.id, () => rpc.call(IdentityRpc.deleteAccount, {}));
      await expect(as(user.id, () => rpc.call(IdentityRpc.getVersionedUser, {}))).rejects.toMatchObject({ code: 'not_found' });
      expect(await as(user.id, () => rpc.call(IdentityRpc.isAdmin, {}))).toEqual({ isAdmin: false });
      const { users } = await as(admin.id, () => rpc.call(IdentityAdminRpc.getUsers, { userIds: [user.id, admin.id] }));
      expect(users.map((u) => u.id)).toEqual([admin.id]);
      await expect(as(user.id, () => rpc.call(IdentityRpc.deleteAccount, {}))).rejects.toMatchObject({ code: 'not_found' });
      expect((await createAccount(user.email)).id).not.toBe(user.id);
    });
  });
});
