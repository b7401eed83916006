import { Client } from 'pg';
import { SIGNUP_BONUS_POINTS } from '@esim/contracts';
import { TEST_DATABASE_URL } from '@esim/testing';
import { uniqueEmail } from '../support/accounts';
import { HttpClient } from '../support/http-client';
import { startSystem, System } from '../support/system';
import { callPostback, earningSettled, postbackFor, signUpEarner, signedPostbackUrl } from './earning-support';

describe('GET /api/admin/stats', () => {
  const adminEmail = uniqueEmail('admin');
  let sys: System;
  let admin: HttpClient;
  let member: HttpClient;

  beforeAll(async () => {
    sys = await startSystem({ services: ['identity', 'rewards', 'esim', 'notifications', 'webhooks'], env: { ADMIN_EMAILS: adminEmail } });
    admin = sys.client();
    member = sys.client();
    await signUpEarner(admin, sys.mail, { email: adminEmail }, sys);
    const user = await signUpEarner(member, sys.mail, {}, sys);
    expect(await callPostback(signedPostbackUrl(sys, 'bitlabs', postbackFor(user.id, 250)))).toMatchObject({ status: 200 });
    await earningSettled(sys);
    // Gifting has no route yet: record two gifts the way esim stores them, one delivered, one only granted.
    const pg = new Client({ connectionString: TEST_DATABASE_URL });
    await pg.connect();
    await pg.query(
      `INSERT INTO "${sys.ns.schema('esim')}".data_gifts (user_id, amount_gb, plan_tier, iccid, status, delivered_at)
       VALUES ($1, 3, '3GB', '8900000000000000001', 'delivered', now()), ($1, 5, '5GB', NULL, 'granted', NULL)`,
      [user.id],
    );
    await pg.end();
  });
  afterAll(() => sys?.stop());

  it('answers the totals to an admin: users with points accounts, data gifted, and the sum of balances', async () => {
    const res = await admin.get('/api/admin/stats');
    expect(res.status).toBe(200);
    // The rows recorded above are redemptions (source 'points'), not admin gifts.
    expect(res.json()).toEqual({ totalUsers: 2, totalDataGifted: 3, totalPoints: 2 * SIGNUP_BONUS_POINTS + 250, giftsGrantedGB: 0, giftsClaimedGB: 0, giftsPendingGB: 0 });
  });

  it('answers 403 to a signed-in non-admin and 401 to a visitor', async () => {
    expect((await member.get('/api/admin/stats')).status).toBe(403);
    expect((await sys.client().get('/api/admin/stats')).status).toBe(401);
  });
});
