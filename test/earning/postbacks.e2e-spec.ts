import { OFFERWALL_IDS, SIGNUP_BONUS_POINTS } from '@esim/contracts';
import { OFFERWALL_PROVIDERS } from '../../services/webhooks/src/postbacks/providers';
import type { SignedUpUser } from '../support/accounts';
import { HttpClient } from '../support/http-client';
import { startSystem, System } from '../support/system';
import { callPostback, earningSettled, postbackFor, signUpEarner, signedPostbackUrl } from './earning-support';

/**
 * Offer-wall postbacks over HTTP, as in production: provider → gateway /webhooks (streamed) → the
 * ingestion service, which answers → its outbox → rewards → ledger. Balances are read once rewards
 * has applied what was accepted (earningSettled).
 */
describe('offer-wall postbacks through the gateway', () => {
  let sys: System;
  let client: HttpClient;
  let user: SignedUpUser;

  beforeAll(async () => {
    // One user takes a credit back on every wall here, a reversal rate the risk rules would answer
    // with longer holds (docs/earning.md, "Risk rules"; test/earning/risk-rules.e2e-spec.ts): this
    // spec is about the postbacks themselves, so the rules wait for more credits than it makes.
    sys = await startSystem({ services: ['identity', 'rewards', 'esim', 'notifications', 'webhooks'], env: { RISK_MIN_CREDITS: '1000' } });
    client = sys.client();
    user = await signUpEarner(client, sys.mail, {}, sys);
  });
  afterAll(() => sys?.stop());

  const points = async () => {
    await earningSettled(sys);
    return (await client.get('/api/user')).json().points as number;
  };

  describe.each(OFFERWALL_IDS)('%s', (provider) => {
    const ack = OFFERWALL_PROVIDERS[provider].ack;

    it(`credits a signed postback once, even sent 10 times at once, and answers "${ack}" as text/plain`, async () => {
      const before = await points();
      const url = signedPostbackUrl(sys, provider, postbackFor(user.id, 120));

      const answers = await Promise.all(Array.from({ length: 10 }, () => callPostback(url)));

      for (const a of answers) expect(a).toEqual({ status: 200, body: ack, contentType: expect.stringMatching(/^text\/plain/) });
      expect(await points()).toBe(before + 120);
    });

    it('credits nothing for a forged signature or an unknown user, and takes a reversal back once', async () => {
      const before = await points();
      const pb = postbackFor(user.id, 300);
      const forged = signedPostbackUrl(sys, provider, pb, { secret: 'guessed' });
      expect(await callPostback(forged)).toMatchObject({ status: 403, body: 'rejected_signature' });
      expect(await callPostback(signedPostbackUrl(sys, provider, postbackFor('00000000-0000-4000-8000-000000000000')))).toMatchObject({
        status: 404,
        body: 'rejected_unknown_user',
      });
      expect(await points()).toBe(before);

      expect(await callPostback(signedPostbackUrl(sys, provider, pb))).toMatchObject({ status: 200, body: ack });
      const reversal = signedPostbackUrl(sys, provider, { ...pb, action: 'reverse' });
      const answers = await Promise.all(Array.from({ length: 4 }, () => callPostback(reversal)));
      for (const a of answers) expect(a).toMatchObject({ status: 200, body: ack });
      expect(await points()).toBe(before);
    });
  });

  it('lists the credited tasks newest first, a reversed one as not completed', async () => {
    await earningSettled(sys);
    const res = await client.get('/api/tasks');
    expect(res.status).toBe(200);
    const tasks = res.json();
    expect(tasks).toHaveLength(OFFERWALL_IDS.length * 2);
    const times = tasks.map((t: { completedAt: string }) => t.completedAt);
    expect([...times].sort().reverse()).toEqual(times);
    expect(tasks[0]).toMatchObject({
      userId: user.id,
      provider: 'torox',
      pointsEarned: 300,
      completed: false,
      taskType: 'offer_completion',
    });
    expect(tasks[1]).toMatchObject({ provider: 'torox', pointsEarned: 120, completed: true, reversedAt: null });
    expect(await points()).toBe(SIGNUP_BONUS_POINTS + OFFERWALL_IDS.length * 120);
  });

  it('answers hostile input with a 4xx, never a 500, and credits nothing', async () => {
    const before = await points();
    const base = `${sys.url}/webhooks/offerwalls`;
    const nasty = [
      callPostback(
        `${base}/cpx?trans_id=1%27%3B%20DROP%20TABLE%20ledger_entries%3B--&user_id=${user.id}&amount_local=1e309&status=1&secure_hash=x`,
      ),
      callPostback(`${base}/bitlabs?uid=%3Cscript%3Ealert(1)%3C%2Fscript%3E&tx=%00&val=NaN&hash=`),
      callPostback(`${base}/lootably?__proto__[x]=1&constructor=1&${'k=v&'.repeat(2000)}`),
      callPostback(`${base}/torox`, {
        method: 'POST',
        body: '{"id": [1, {"a": null}], broken',
        headers: { 'content-type': 'application/json' },
      }),
      callPostback(`${base}/rapidoreach`, {
        method: 'POST',
        body: JSON.stringify({ transactionId: { $gt: '' }, currencyAmt: [1, 2] }),
        headers: { 'content-type': 'application/json' },
      }),
      callPostback(`${base}/cpx?${'x'.repeat(20_000)}=1`),
    ];
    for (const answer of await Promise.all(nasty)) {
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
    }
    expect(await points()).toBe(before);
  });

  it('reads a postback POSTed as a form, and refuses unknown walls and oversized bodies', async () => {
    const before = await points();
    const signed = new URL(signedPostbackUrl(sys, 'cpx', postbackFor(user.id, 10)));
    const form = signed.searchParams.toString();
    const posted = await callPostback(`${sys.url}/webhooks/offerwalls/cpx`, {
      method: 'POST',
      body: form,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(posted).toMatchObject({ status: 200, body: '1' });
    expect(await points()).toBe(before + 10);

    expect((await callPostback(`${sys.url}/webhooks/offerwalls/adgem?x=1`)).status).toBe(404);
    const huge = await callPostback(`${sys.url}/webhooks/offerwalls/cpx`, {
      method: 'POST',
      body: `x=${'a'.repeat(200_000)}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(huge.status).toBe(413);
  });
});
