import { randomBytes, randomUUID } from 'node:crypto';
import { credit } from '../redemption/redemption-support';
import { signUp, SignedUpUser, uniqueEmail } from '../support/accounts';
import type { HttpClient } from '../support/http-client';
import { startSystem, System } from '../support/system';

type Linked = { groups: Array<{ reasons: string[]; accounts: Array<{ userId: string; disposableEmail: boolean; sharedNetworks: number; credits: number; reversals: number }> }> };

/**
 * Fraud signals in /api/admin/linked-accounts (docs/earning.md, "Fair fraud control"): accounts
 * that used one device are linked, with their other signals (a disposable email from the
 * maintained list, shared networks, offer-wall credits and reversals); accounts that share only an
 * address (every client of this test comes from 127.0.0.1) are not.
 */
describe('admin: accounts linked by the fraud signals', () => {
  let sys: System;
  let admin: SignedUpUser & { client: HttpClient };
  const ADMIN = uniqueEmail('risk-admin');

  const withClient = async (o: Parameters<typeof signUp>[2]) => {
    const client = sys.client();
    return { ...(await signUp(client, sys.mail, o)), client };
  };

  beforeAll(async () => {
    sys = await startSystem({ env: { ADMIN_EMAILS: ADMIN } });
    admin = await withClient({ email: ADMIN, name: 'Risk Admin' });
  }, 120_000);
  afterAll(() => sys?.stop());

  it('links accounts by a shared device, never by a shared address alone, and shows each one’s signals', async () => {
    const device = randomUUID();
    const first = await withClient({ name: 'Nia First', deviceId: device });
    const second = await withClient({ name: 'Nia Second', email: `nia-${randomBytes(4).toString('hex')}@mailinator.com`, deviceId: device });
    const apart = await withClient({ name: 'Oto Apart', deviceId: randomUUID() });
    await credit(sys, second.id, 50);

    const res = await admin.client.get('/api/admin/linked-accounts');
    expect(res.status).toBe(200);
    const { groups } = res.json() as Linked;
    const mine = groups.filter((g) => g.accounts.some((a) => [first.id, second.id, apart.id].includes(a.userId)));
    expect(mine).toHaveLength(1);
    expect(mine[0].reasons).toEqual(['shared_device']);
    expect(mine[0].accounts.map((a) => a.userId).sort()).toEqual([first.id, second.id].sort());
    const byId = new Map(mine[0].accounts.map((a) => [a.userId, a]));
    expect(byId.get(first.id)).toMatchObject({ disposableEmail: false, credits: 0, reversals: 0 });
    expect(byId.get(second.id)).toMatchObject({ disposableEmail: true, credits: 1, reversals: 0 });
    // Both signed up from 127.0.0.1: shown beside the device link, as every other account's is, and linking nothing by itself.
    expect(byId.get(first.id)!.sharedNetworks).toBeGreaterThanOrEqual(1);
  });

  it('is for admins only', async () => {
    const someone = await withClient({ name: 'Not Admin' });
    expect((await someone.client.get('/api/admin/linked-accounts')).status).toBe(403);
  });
});
