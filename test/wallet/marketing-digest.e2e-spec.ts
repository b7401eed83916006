import type { INestApplication } from '@nestjs/common';
import { Client } from 'pg';
import { TEST_DATABASE_URL, waitFor } from '@esim/testing';
import { startNotifications } from '../../services/notifications/src/app';
import { MarketingDigest } from '../../services/notifications/src/marketing/marketing-digest.service';
import { MarketingDigestJob } from '../../services/notifications/src/marketing/marketing-digest.job';
import { signUp, SignedUpUser } from '../support/accounts';
import { HttpClient } from '../support/http-client';
import { startSystem, System } from '../support/system';

const DIGEST = /^This week: earn free data with new offers$/;
const WEEK = 7 * 24 * 3600 * 1000;

/**
 * The promotional digest (docs/accounts.md, "What each switch governs"): only to people with
 * `marketingEmails` on, at most once per person and period even when two notifications replicas
 * run it, with its why-line and a one-click unsubscribe (List-Unsubscribe, RFC 8058) that turns
 * the switch off without signing in.
 */
describe('wallet: the promotional digest and its unsubscribe link', () => {
  let sys: System;
  let replica: INestApplication;
  let notificationsDb: Client;
  let ana: { client: HttpClient; user: SignedUpUser };
  let bruno: { client: HttpClient; user: SignedUpUser };
  let carla: { client: HttpClient; user: SignedUpUser };

  const digestsTo = (u: SignedUpUser) => sys.mail.mailsTo(u.email).filter((m) => DIGEST.test(m.subject));
  const settingsOf = async (c: HttpClient) => (await c.get('/api/user')).json().settings;

  async function person(name: string, marketingEmails: boolean) {
    const client = sys.client();
    const user = await signUp(client, sys.mail, { name });
    expect((await client.patch('/api/user/settings', { locale: 'en', marketingEmails })).status).toBe(200);
    return { client, user };
  }

  /** Both replicas run the digest of one period at once; answers how many each queued. */
  const runOnBoth = (period: Date) =>
    Promise.all([sys.apps.notifications!.get(MarketingDigest).run(period), replica.get(MarketingDigest).run(period)]);

  beforeAll(async () => {
    sys = await startSystem({ services: ['identity', 'rewards', 'esim', 'notifications'] });
    replica = await startNotifications(sys.ns.env('notifications', { ...sys.mail.env(), PUBLIC_URL: sys.url }));
    notificationsDb = new Client({ connectionString: TEST_DATABASE_URL, options: `-c search_path=${sys.ns.schema('notifications')}` });
    await notificationsDb.connect();
    ana = await person('Ana', true);
    bruno = await person('Bruno', false);
    carla = await person('Carla', true);
    expect((await carla.client.delete('/api/user/account')).status).toBe(200);
  }, 120_000);

  afterAll(async () => {
    await replica?.close();
    await notificationsDb?.end();
    await sys?.stop();
  });

  it('is scheduled once however many replicas start', async () => {
    expect(await replica.get(MarketingDigestJob).queue.getJobSchedulers()).toHaveLength(1);
  });

  it('goes once per period to those who turned it on, never to the others or to a deleted account, with two replicas', async () => {
    const period = new Date(Math.floor(Date.now() / WEEK) * WEEK + 3 * WEEK);
    const [first, second] = await runOnBoth(period);
    expect(first + second).toBe(1);
    const mail = await sys.mail.waitForMail(ana.user.email, { subject: DIGEST, timeoutMs: 30_000 });
    expect(mail.text).toMatch(/because promotional emails are on in your profile: http:\/\/.+\/profile/);
    expect(mail.text).toMatch(/Stop these emails with one click:\s+http:\/\/.+\/unsubscribe\?token=/);
    expect(mail.headers['list-unsubscribe']).toMatch(/^<http:\/\/.+\/api\/mail\/unsubscribe\?token=[^>]+>$/);
    expect(mail.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');

    // The same period again, on either replica: nothing more.
    expect(await runOnBoth(period)).toEqual([0, 0]);
    // The next period: one more.
    const [a, b] = await runOnBoth(new Date(period.getTime() + WEEK));
    expect(a + b).toBe(1);
    await waitFor(async () => digestsTo(ana.user).length === 2, { what: 'the next period’s digest', timeoutMs: 30_000 });
    const { rows } = await notificationsDb.query('SELECT user_id FROM marketing_digests WHERE period_start >= $1', [period]);
    expect(rows.map((r) => r.user_id)).toEqual([ana.user.id, ana.user.id]);
    expect(digestsTo(bruno.user)).toEqual([]);
    expect(digestsTo(carla.user)).toEqual([]);
  });

  it('one-click unsubscribe turns it off without signing in, and a forged link changes nothing', async () => {
    const [mail] = digestsTo(ana.user);
    const url = new URL(mail.headers['list-unsubscribe'].slice(1, -1));
    const target = `${url.pathname}${url.search}`;
    const visitor = sys.client();

    const forged = await visitor.post(target.replace(/token=[^&]+/, `token=${ana.user.id}.${'A'.repeat(43)}`));
    expect(forged.status).toBe(400);
    expect(forged.json()).toMatchObject({ reason: 'invalid_unsubscribe_link' });
    expect((await visitor.post('/api/mail/unsubscribe')).status).toBe(400);
    expect((await settingsOf(ana.client)).marketingEmails).toBe(true);

    // As a mail client sends it (RFC 8058): a form POST, no session, no Origin of ours.
    const res = await fetch(`${sys.url}${target}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ unsubscribed: true });
    // Only this route takes a form: any other /api route still refuses one (CSRF).
    const elsewhere = await fetch(`${sys.url}/api/user/settings`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'marketingEmails=false',
    });
    expect(await elsewhere.json()).toMatchObject({ reason: 'csrf_content_type' });
    await waitFor(async () => (await settingsOf(ana.client)).marketingEmails === false, { what: 'the switch off' });
    // Said again: still done.
    expect((await visitor.post(target)).status).toBe(200);

    const later = new Date(Math.floor(Date.now() / WEEK) * WEEK + 10 * WEEK);
    expect(await runOnBoth(later)).toEqual([0, 0]);
    expect(digestsTo(ana.user)).toHaveLength(2);
  });
});
