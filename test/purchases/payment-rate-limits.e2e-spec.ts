import type { Client } from 'pg';
import { signUp, type SignedUpUser } from '../support/accounts';
import type { HttpClient, HttpResponse } from '../support/http-client';
import { startSystem, System } from '../support/system';
import { paymentsDb } from './purchases-support';

const PER_USER = 20; // RATE_LIMIT_PAYMENT_USER's default
const PER_NETWORK = 30;

/**
 * Audit finding 8: one session created 100 PaymentIntents in 1.6 s, and Stripe's write limit is
 * the whole account's. Starting a card payment now counts per user (the default setting) and per
 * client network; past either, a 429 with Retry-After, and no PaymentIntent is created.
 */
describe('card payment rate limits', () => {
  let sys: System;
  let db: Client;

  beforeAll(async () => {
    sys = await startSystem({
      services: ['identity', 'esim', 'payments', 'notifications'],
      gatewayEnv: { RATE_LIMIT_PAYMENT_IP: `${PER_NETWORK}/600` },
    });
    db = await paymentsDb(sys);
  });
  afterAll(async () => {
    await db?.end();
    await sys?.stop();
  });

  const intentsOf = async (user: SignedUpUser) => Number((await db.query('SELECT count(*) FROM esim_purchases WHERE user_id = $1', [user.id])).rows[0].count);
  const create = (client: HttpClient) => client.post('/api/create-esim-payment', { planType: '1GB', country: 'US' });

  /** `n` calls, `width` at a time, as a script in one session would send them. */
  const burst = async (client: HttpClient, n: number, width = 10): Promise<HttpResponse[]> => {
    const answers: HttpResponse[] = [];
    let sent = 0;
    await Promise.all(
      Array.from({ length: width }, async () => {
        while (sent < n) {
          sent++;
          answers.push(await create(client));
        }
      }),
    );
    return answers;
  };

  it('lets one session start its per-user number of payments out of 100, refuses the rest 429, and creates no more intents', async () => {
    const client = sys.client();
    const user = await signUp(client, sys.mail, { name: 'Burst' });
    const answers = await burst(client, 100);
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(PER_USER);
    expect(statuses.filter((s) => s === 429)).toHaveLength(100 - PER_USER);
    const refused = answers.find((a) => a.status === 429)!;
    expect(refused.json()).toMatchObject({ code: 'rate_limited' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await intentsOf(user)).toBe(PER_USER);
  });

  it('counts the client network across accounts', async () => {
    // The first test's 20 accepted and 80 refused calls already spent this network's budget.
    const client = sys.client();
    const other = await signUp(client, sys.mail, { name: 'Other' });
    const answer = await create(client);
    expect(answer.status).toBe(429);
    expect(await intentsOf(other)).toBe(0);
  });
});
