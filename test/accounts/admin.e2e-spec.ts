import { DataSource } from 'typeorm';
import { runAdminCommand } from '../../services/identity/src/cli/admin-command';
import { signUp, uniqueEmail } from '../support/accounts';
import { AccountsSystem, login, startAccountsSystem } from './accounts-system';

const BOSS = uniqueEmail('boss');

/** Security check 13: admin routes answer 401 to visitors and 403 to non-admins; admins exist only by the operator's hand. */
describe('admin access', () => {
  let sys: AccountsSystem;
  const identityDataSource = () => sys.apps.identity!.get(DataSource);
  /** Every admin route the gateway serves, read from its router, with path parameters filled in. */
  const adminRoutes = (): Array<[string, string]> => {
    const express = sys.apps.gateway!.getHttpAdapter().getInstance() as {
      router: { stack: Array<{ route?: { path: string; methods: Record<string, boolean> } }> };
    };
    return express.router.stack
      .flatMap((layer) =>
        layer.route ? Object.keys(layer.route.methods).map((m) => [m.toUpperCase(), layer.route!.path] as [string, string]) : [],
      )
      .filter(([, path]) => path.startsWith('/api/admin/'))
      .map(([method, path]) => [method, path.replace(/:[A-Za-z]+/g, '00000000-0000-4000-8000-000000000000')]);
  };

  beforeAll(async () => {
    sys = await startAccountsSystem({ env: { ADMIN_EMAILS: ` ${BOSS.toUpperCase()} , ops@example.test` } });
  });
  afterAll(() => sys?.stop());

  it('has no account at all, so no default admin, before anyone signs up', async () => {
    expect((await sys.identityDb.query('SELECT count(*)::int AS n FROM users')).rows[0].n).toBe(0);
    for (const [email, password] of [
      ['admin@admin.com', 'admin'],
      ['admin@example.com', 'password'],
      ['root@localhost', 'root'],
    ]) {
      expect((await login(sys.client(), email, password)).status).toBe(401);
    }
  });

  it('answers 401 to a visitor and 403 to a signed-in non-admin on every /api/admin route', async () => {
    const routes = adminRoutes();
    expect(routes).toContainEqual(['GET', '/api/admin/users']);
    const visitor = sys.client();
    const member = sys.client();
    await signUp(member, sys.mail, { email: uniqueEmail('member') });
    for (const [method, path] of routes) {
      const body = method === 'GET' ? undefined : {};
      expect({ method, path, status: (await visitor.request(method, path, body)).status }).toEqual({ method, path, status: 401 });
      const res = await member.request(method, path, body);
      expect({ method, path, status: res.status }).toEqual({ method, path, status: 403 });
      expect(res.json().message).toBe("Access Denied - You don't have admin privileges.");
    }
  });

  it('makes an ADMIN_EMAILS account an admin, who sees the user table rows', async () => {
    const boss = sys.client();
    const admin = await signUp(boss, sys.mail, { email: BOSS, name: 'Boss' });
    const member = await signUp(sys.client(), sys.mail, { name: 'Member' });
    expect((await boss.get('/api/user')).json().isAdmin).toBe(true);

    const res = await boss.get('/api/admin/users');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toMatch(/no-store/);
    const rows = res.json<Array<Record<string, unknown>>>();
    expect(rows.find((r) => r.id === admin.id)).toMatchObject({ email: BOSS, name: 'Boss', isAdmin: true });
    expect(rows.find((r) => r.id === member.id)).toEqual({
      id: member.id,
      name: 'Member',
      email: member.email,
      isAdmin: false,
      createdAt: expect.any(String),
      iccid: null,
      points: expect.any(Number),
      dataGiftedGB: 0,
      giftsGrantedGB: 0,
      giftsClaimedGB: 0,
      giftsPendingGB: 0,
      lastGiftedAt: null,
    });
    expect((await boss.get('/api/admin/users?limit=1')).json()).toHaveLength(1);
    expect((await boss.get('/api/admin/users?limit=0')).status).toBe(400);
  });

  it('grants and revokes with the operator command, effective on the very next request', async () => {
    const browser = sys.client();
    const user = await signUp(browser, sys.mail);
    expect((await browser.get('/api/admin/users')).status).toBe(403);

    expect(await runAdminCommand(identityDataSource(), 'grant', user.email.toUpperCase())).toMatchObject({
      ok: true,
      changed: true,
      userId: user.id,
    });
    expect((await browser.get('/api/admin/users')).status).toBe(200);
    expect(await runAdminCommand(identityDataSource(), 'grant', user.email)).toMatchObject({ ok: true, changed: false });

    expect(await runAdminCommand(identityDataSource(), 'revoke', user.email)).toMatchObject({ ok: true, changed: true });
    expect((await browser.get('/api/admin/users')).status).toBe(403);
    expect(await runAdminCommand(identityDataSource(), 'grant', uniqueEmail('nobody'))).toMatchObject({ ok: false, changed: false });
  });
});
