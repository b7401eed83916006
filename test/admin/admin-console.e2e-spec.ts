import { DataSource } from 'typeorm';
import { ADMIN_EXPORT_COLUMNS, NEXT_CURSOR_HEADER, TOTAL_COUNT_HEADER } from '@esim/contracts';
import { waitFor } from '@esim/testing';
import { KeepGoEmulatorFaults } from '../../sandboxes/src/keepgo/keepgo-emulator-faults';
import { runAdminCommand } from '../../services/identity/src/cli/admin-command';
import en from '../../services/notifications/src/templates/locales/en.json';
import pt from '../../services/notifications/src/templates/locales/pt.json';
import { claimGift, credit, DEMO_ICCID, Redeemer, signUpRedeemer, topUp } from '../redemption/redemption-support';
import { uniqueEmail } from '../support/accounts';
import type { System } from '../support/system';
import { csvCells, csvLines, seedUsers, sql, startAdminSystem } from './admin-support';

const BOSS = uniqueEmail('boss');

/** /api/admin over HTTP: gifting, stats, the server-paged user table, the supplier test, the CSV export and the audit trail. */
describe('the admin console', () => {
  let sys: System;
  let boss: Redeemer;
  let lia: Redeemer;

  beforeAll(async () => {
    sys = await startAdminSystem(BOSS);
    [boss, lia] = await Promise.all([signUpRedeemer(sys, { email: BOSS, name: 'Boss' }), signUpRedeemer(sys, { name: 'Lia Gifted', locale: 'pt' })]);
  });
  afterAll(() => sys?.stop());

  const gift = (userId: string, body: unknown) => boss.client.post(`/api/admin/gift-data/${userId}`, body);
  const auditEntries = async () => (await boss.client.get('/api/admin/audit?limit=200')).json().entries as Array<Record<string, any>>;

  it('gifts 1, 3 and 5 GB with iccid admin-gifted, and emails the user each gift in their language', async () => {
    for (const [planTier, amountGB] of [['1GB', 1], ['3GB', 3], ['5GB', 5]] as const) {
      const mails = sys.mail.messages.length;
      const res = await gift(lia.id, { planTier, iccid: 'admin-gifted' });
      expect(res.status).toBe(201);
      expect(res.json()).toMatchObject({ userId: lia.id, amountGB, planTier, status: 'granted' });
      const mail = await sys.mail.waitForMail(lia.email, { after: mails });
      expect(mail.subject).toBe(pt.dataGifted.subject.replace('{{amountGB}}', String(amountGB)));
    }
    expect((await lia.client.get('/api/gifts')).json().pendingGifts.map((g: { amountGB: number }) => g.amountGB)).toEqual([1, 3, 5]);
  });

  it('refuses a missing or unknown tier and an unknown user, granting nothing', async () => {
    const missing = await gift(lia.id, { iccid: 'admin-gifted' });
    expect(missing.status).toBe(400);
    expect(missing.json().message).toBe('Missing selection: Please select a user and plan tier.');
    expect((await gift(lia.id, { planTier: '10GB', iccid: 'admin-gifted' })).status).toBe(400);
    expect((await gift(lia.id, { planTier: '2GB', iccid: 'admin-gifted' })).status).toBe(400);
    const unknown = await gift('00000000-0000-4000-8000-000000000000', { planTier: '1GB', iccid: 'admin-gifted' });
    expect(unknown.status).toBe(404);
    expect(unknown.json().message).toBe('User not found');
    expect((await lia.client.get('/api/gifts')).json().pendingGifts).toHaveLength(3);
  });

  it('shows a claimed gift in the stat cards and in the user row', async () => {
    const before = (await boss.client.get('/api/admin/stats')).json();
    const claimed = await claimGift(lia.client, topUp(DEMO_ICCID, '3GB'));
    expect(claimed.json()).toMatchObject({ status: 'completed', amountGB: 3 });
    const stats = (await boss.client.get('/api/admin/stats')).json();
    expect(stats).toEqual({
      totalUsers: before.totalUsers,
      totalDataGifted: before.totalDataGifted + 3,
      totalPoints: before.totalPoints,
      giftsGrantedGB: before.giftsGrantedGB,
      giftsClaimedGB: before.giftsClaimedGB + 3,
      giftsPendingGB: before.giftsPendingGB - 3,
    });
    const rows = (await boss.client.get(`/api/admin/users?q=${encodeURIComponent(lia.email)}`)).json();
    expect(rows).toEqual([
      expect.objectContaining({ id: lia.id, name: 'Lia Gifted', email: lia.email, points: 100, dataGiftedGB: 3, iccid: DEMO_ICCID, lastGiftedAt: expect.any(String), giftsGrantedGB: 9, giftsClaimedGB: 3, giftsPendingGB: 6 }),
    ]);
  });

  it('searches, orders and pages the user table on the server', async () => {
    const tag = `Pager${Date.now().toString(36)}`;
    const [a, b, c] = await Promise.all(['Carla', 'Abel', 'Bruna'].map((n) => signUpRedeemer(sys, { name: `${n} ${tag}` })));
    await credit(sys, a.id, 900);
    await credit(sys, c.id, 2500);
    const page = (query: string) => boss.client.get(`/api/admin/users?q=${tag}&${query}`);

    const byName = await page('sort=name&order=asc&limit=2');
    expect(byName.status).toBe(200);
    expect(byName.headers.get(TOTAL_COUNT_HEADER)).toBe('3');
    expect(byName.json().map((r: { name: string }) => r.name)).toEqual([`Abel ${tag}`, `Bruna ${tag}`]);
    const cursor = byName.headers.get(NEXT_CURSOR_HEADER);
    expect(cursor).toBeTruthy();
    const rest = await page(`sort=name&order=asc&limit=2&cursor=${cursor}`);
    expect(rest.json().map((r: { name: string }) => r.name)).toEqual([`Carla ${tag}`]);
    expect(rest.headers.get(NEXT_CURSOR_HEADER)).toBeNull();

    expect((await page('sort=email&order=desc')).json().map((r: { email: string }) => r.email)).toEqual([a.email, b.email, c.email].sort().reverse());
    expect((await page('sort=createdAt&order=asc')).json()).toHaveLength(3);
    // Ordered by points through rewards' projection, which catches up within ADMIN_POINTS_REFRESH_MS.
    await waitFor(async () => (await page('sort=points&order=desc')).json().map((r: { id: string }) => r.id).join() === [c.id, a.id, b.id].join(), {
      what: 'the points order',
    });
    const byPoints = (await page('sort=points&order=desc&limit=1')).json();
    expect(byPoints).toEqual([expect.objectContaining({ id: c.id, points: 2600 })]);
    expect((await boss.client.get(`/api/admin/users?q=${tag}-nobody`)).json()).toEqual([]);
    for (const bad of ['sort=password', 'order=up', 'limit=0', 'limit=1001', 'cursor=zz', 'cursor=abcd&offset=3']) {
      expect({ bad, status: (await boss.client.get(`/api/admin/users?${bad}`)).status }).toEqual({ bad, status: 400 });
    }
    expect((await boss.client.get('/api/admin/users?cursor=7b7d')).status).toBe(400);
    expect((await b.client.get(`/api/admin/users?q=${tag}`)).status).toBe(403);
  });

  it('tests the KeepGo connection: connected against the emulator, a clear failure when it is down', async () => {
    const ok = await boss.client.get('/api/admin/keepgo/test');
    expect(ok.status).toBe(200);
    expect(ok.json()).toEqual({
      success: true,
      message: expect.stringContaining('Connected to KeepGo'),
      mode: 'sandbox',
      lines: { data: { sim_cards: { total: expect.any(Number) } } },
      apiStatus: { lines: 'connected' },
    });
    expect(ok.json().lines.data.sim_cards.total).toBeGreaterThanOrEqual(1);

    const faults = sys.sandboxes.app.get(KeepGoEmulatorFaults);
    faults.set({ mode: 'fail', path: 'GET /lines' });
    try {
      const down = await boss.client.get('/api/admin/keepgo/test');
      expect(down.status).toBe(200);
      expect(down.json()).toEqual({
        success: false,
        message: expect.stringMatching(/^KeepGo API connection failed: .*\(unavailable\)$/),
        mode: 'sandbox',
        lines: { data: { sim_cards: { total: null } } },
        apiStatus: { lines: 'failed' },
      });
    } finally {
      faults.reset();
    }
    expect((await lia.client.get('/api/admin/keepgo/test')).status).toBe(403);
    expect((await sys.client().get('/api/admin/keepgo/test')).status).toBe(401);
  });

  it('exports every user as streamed CSV: a header row, formulas neutralised, one row per user', async () => {
    const label = await seedUsers(sys, 3000);
    const evil = await signUpRedeemer(sys, { name: '=HYPERLINK("http://evil.example","click")' });
    await sql(`UPDATE "${sys.ns.schema('identity')}".users SET name = $2 WHERE id = $1`, [lia.id, '+Lia, "the" gifted']);
    const [{ n: live }] = await sql<{ n: number }>(`SELECT count(*)::int AS n FROM "${sys.ns.schema('identity')}".users WHERE deleted_at IS NULL`);

    const res = await fetch(`${sys.url}/api/admin/users/export`, { headers: { cookie: [...boss.client.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="users-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(res.headers.get('transfer-encoding')).toBe('chunked');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.toString('utf8');
    const lines = csvLines(text);
    expect(lines[0]).toBe(ADMIN_EXPORT_COLUMNS.join(','));
    expect(lines).toHaveLength(live + 1);
    expect(lines.filter((l) => l.includes(`,${label} `))).toHaveLength(3000);
    const row = (id: string) => csvCells(lines.find((l) => l.startsWith(id))!);
    expect(text).toContain(`"'=HYPERLINK(""http://evil.example"",""click"")"`);
    expect(row(evil.id)).toEqual([evil.id, `'=HYPERLINK("http://evil.example","click")`, evil.email, 'false', expect.any(String), '100', 'Earning', '0', '', '']);
    expect(row(lia.id)).toEqual([lia.id, `'+Lia, "the" gifted`, lia.email, 'false', expect.any(String), '100', 'Earning', '3', DEMO_ICCID, expect.stringMatching(/^\d{4}-/)]);
    expect(row(boss.id)[3]).toBe('true');
    expect(row(boss.id)[4]).toBe(new Date(row(boss.id)[4]).toISOString());

    expect((await lia.client.get('/api/admin/users/export')).status).toBe(403);
    expect((await sys.client().get('/api/admin/users/export')).status).toBe(401);
    // The outcome is written once the last row has been handed to the socket, so it may land a
    // moment after the client has read the whole body.
    const entry = await waitFor(async () => (await auditEntries()).find((e) => e.action === 'users_exported' && e.outcome), {
      what: 'the export’s outcome in the trail',
    });
    expect(entry).toMatchObject({ actorId: boss.id, actor: BOSS, outcome: 'succeeded', outcomeMessage: `${live} users exported` });
  });

  it('keeps admin actions in an append-only trail, grants and revokes from the command line included', async () => {
    const member = await signUpRedeemer(sys, { name: 'Member' });
    const identityDb = sys.apps.identity!.get(DataSource);
    expect(await runAdminCommand(identityDb, 'grant', member.email, 'cli:ops')).toMatchObject({ ok: true, changed: true });
    expect(await runAdminCommand(identityDb, 'revoke', member.email, 'cli:ops')).toMatchObject({ ok: true, changed: true });

    const entries = await auditEntries();
    const about = (action: string, targetId: string) => entries.filter((e) => e.action === action && e.targetId === targetId);
    expect(about('admin_granted', member.id)).toEqual([expect.objectContaining({ actorId: null, actor: 'cli:ops', targetType: 'user', outcome: 'succeeded' })]);
    expect(about('admin_revoked', member.id)).toEqual([expect.objectContaining({ actor: 'cli:ops' })]);
    expect(about('admin_granted', boss.id)).toEqual([expect.objectContaining({ actor: 'ADMIN_EMAILS' })]);
    await waitFor(async () => (await auditEntries()).filter((e) => e.action === 'data_gift_granted' && e.targetId === lia.id).length === 3, { what: 'the gifts in the trail' });
    expect((await auditEntries()).find((e) => e.action === 'data_gift_granted')).toMatchObject({ actorId: boss.id, actor: BOSS, details: { planTier: expect.any(String) }, outcome: 'succeeded' });

    const schema = sys.ns.schema('identity');
    await expect(sql(`UPDATE "${schema}".admin_audit_log SET actor = 'nobody'`)).rejects.toThrow(/append-only/);
    await expect(sql(`DELETE FROM "${schema}".admin_audit_log`)).rejects.toThrow(/append-only/);
    await expect(sql(`DELETE FROM "${schema}".admin_audit_outcomes`)).rejects.toThrow(/append-only/);
    await expect(sql(`TRUNCATE "${schema}".admin_audit_log CASCADE`)).rejects.toThrow(/append-only/);
    expect((await lia.client.get('/api/admin/audit')).status).toBe(403);
    expect(en.dataGifted.subject).toBeTruthy();
  });

  it('grants no gift the trail cannot record', async () => {
    const schema = sys.ns.schema('identity');
    const pending = async () => (await lia.client.get('/api/gifts')).json().pendingGifts.length as number;
    const before = await pending();
    // The trail refuses gift entries for a moment (identity's database says no, as when it is full or down).
    await sql(`ALTER TABLE "${schema}".admin_audit_log ADD CONSTRAINT no_gifts_now CHECK (action <> 'data_gift_granted') NOT VALID`);
    try {
      const res = await gift(lia.id, { planTier: '1GB', iccid: 'admin-gifted' });
      expect({ status: res.status, code: res.json().code, reason: res.json().reason }).toEqual({ status: 503, code: 'unavailable', reason: 'audit_unavailable' });
    } finally {
      await sql(`ALTER TABLE "${schema}".admin_audit_log DROP CONSTRAINT no_gifts_now`);
    }
    expect(await pending()).toBe(before);
    expect((await gift(lia.id, { planTier: '1GB', iccid: 'admin-gifted' })).status).toBe(201);
    expect(await pending()).toBe(before + 1);
  });
});
