import { SIGNUP_BONUS_POINTS } from '@esim/contracts';
import { uniqueEmail } from '../support/accounts';
import { HttpClient } from '../support/http-client';
import { startSystem, System } from '../support/system';
import { callPostback, postbackFor, signUpEarner, signedPostbackUrl } from './earning-support';

describe('GET /api/admin/stats', () => {
  const adminEmail = uniqueEmail('admin');
  let sys: System;
  let admin: HttpClient;
  let member: HttpClient;

  beforeAll(async () => {
    sys = await startSystem({ services: ['identity', 'rewards', 'esim', 'notifications'], env: { ADMIN_EMAILS: adminEmail } });
    admin = sys.client();
    member = sys.client();
    await signUpEarner(admin, sys.mail, { email: adminEmail });
    const user = await signUpEarner(member, sys.mail);
    expect(await callPostback(signedPostbackUrl(sys, 'bitlabs', postbackFor(user.id, 250)))).toMatchObject({ status: 200 });
  });
  afterAll(() => sys?.stop());

  it('answers the totals to an admin: users with points accounts, data gifted, and the sum of balances', async () => {
    const res = await admin.get('/api/admin/stats');
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ totalUsers: 2, totalDataGifted: 0, totalPoints: 2 * SIGNUP_BONUS_POINTS + 250 });
  });

  it('answers 403 to a signed-in non-admin and 401 to a visitor', async () => {
    expect((await member.get('/api/admin/stats')).status).toBe(403);
    expect((await sys.client().get('/api/admin/stats')).status).toBe(401);
  });
});
