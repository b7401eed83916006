import type { INestApplication } from '@nestjs/common';
import { Client } from 'pg';
import { TEST_DATABASE_URL, waitFor } from '@esim/testing';
import { startEsim } from '../../services/esim/src/app';
import { confirmPurchase, createPayment, keepGoControl, payWithVisa } from '../purchases/purchases-support';
import { signUp, SignedUpUser } from '../support/accounts';
import type { HttpClient } from '../support/http-client';
import { waitForQuiet } from '../support/quiet';
import { startSystem, System } from '../support/system';

const LOW = /running low on data/;

const ENV = {
  PURCHASE_CONFIRM_WAIT_MS: '5000',
  ESIM_USAGE_CHECK_SECONDS: '1',
  ESIM_LINE_USAGE_REFRESH_SECONDS: '0',
  ESIM_DATA_ALERT_PERCENT: '80',
  ESIM_DATA_ALERT_REMAINING_MB: '100',
  KEEPGO_RETRY_BACKOFF_MS: '10',
};

/**
 * Low-data alerts (docs/wallet.md): the esim service reads each wallet line's usage from KeepGo
 * (its emulator) in the background and alerts once per line, threshold and data cycle, with two
 * esim replicas reading and one of them restarted in between; by email only when the user's
 * dataAlerts and emailNotifications switches are on.
 */
describe('wallet: low-data alerts', () => {
  let sys: System;
  let esimDb: Client;
  const replicas: INestApplication[] = [];
  let ana: { client: HttpClient; user: SignedUpUser; iccid: string };
  let bruno: { client: HttpClient; user: SignedUpUser; iccid: string };

  async function buyOneGB(client: HttpClient): Promise<string> {
    const payment = await createPayment(client, { planType: '1GB', country: 'BR' });
    expect((await payWithVisa(sys, payment)).status).toBe(200);
    return waitFor(
      async () => {
        const body = (await confirmPurchase(client, payment.paymentIntentId)).json();
        return body.status === 'activated' ? (body.iccid as string) : undefined;
      },
      { what: 'the eSIM bought', timeoutMs: 20_000 },
    );
  }

  const alerts = async (iccid: string) =>
    (await esimDb.query<{ threshold: string }>('SELECT threshold FROM line_data_alerts WHERE iccid = $1 ORDER BY threshold', [iccid])).rows.map((r) => r.threshold);

  /** Waits until the line has been read again `rounds` times after now, as line_usage_checks records it. */
  async function readAgain(iccid: string, rounds: number): Promise<void> {
    for (let i = 0; i < rounds; i++) {
      const { rows } = await esimDb.query<{ now: Date }>('SELECT now()');
      await waitFor(
        async () => {
          const r = await esimDb.query<{ checked_at: Date }>('SELECT checked_at FROM line_usage_checks WHERE iccid = $1', [iccid]);
          return r.rows[0] && r.rows[0].checked_at > rows[0].now;
        },
        { what: `line ${iccid} read again`, timeoutMs: 20_000 },
      );
    }
  }

  beforeAll(async () => {
    sys = await startSystem({ services: ['identity', 'rewards', 'esim', 'payments', 'notifications'], env: ENV });
    esimDb = new Client({ connectionString: TEST_DATABASE_URL, options: `-c search_path=${sys.ns.schema('esim')}` });
    await esimDb.connect();
    const anaClient = sys.client();
    const brunoClient = sys.client();
    const anaUser = await signUp(anaClient, sys.mail, { name: 'Ana' });
    const brunoUser = await signUp(brunoClient, sys.mail, { name: 'Bruno' });
    expect((await anaClient.patch('/api/user/settings', { locale: 'en' })).status).toBe(200);
    expect((await brunoClient.patch('/api/user/settings', { locale: 'en', dataAlerts: false })).status).toBe(200);
    ana = { client: anaClient, user: anaUser, iccid: await buyOneGB(anaClient) };
    bruno = { client: brunoClient, user: brunoUser, iccid: await buyOneGB(brunoClient) };
    // A second esim replica reads the same lines, as in a deployment with two.
    replicas.push(await startEsim(sys.ns.env('esim', { ...sys.mail.env(), PUBLIC_URL: sys.url, SANDBOXES_URL: sys.sandboxes.url, ...ENV })));
  }, 120_000);

  afterAll(async () => {
    for (const r of replicas) await r.close();
    await esimDb?.end();
    await sys?.stop();
  });

  it('alerts nobody while most of the data is left', async () => {
    await readAgain(ana.iccid, 2);
    expect(await alerts(ana.iccid)).toEqual([]);
    expect(sys.mail.mailsTo(ana.user.email).filter((m) => LOW.test(m.subject))).toHaveLength(0);
  });

  it('emails once when 80 % is used, with two replicas reading and one restarted in between', async () => {
    await keepGoControl(sys, { consume: { iccid: ana.iccid, mb: 850 } });
    const mail = await sys.mail.waitForMail(ana.user.email, { subject: LOW, timeoutMs: 30_000 });
    expect(mail.text).toContain(`ending in ${ana.iccid.slice(-4)}`);
    expect(mail.text).toContain('174 MB left');
    // Why it came and where to change it, in one line.
    expect(mail.text).toMatch(/because data alerts and email notifications are on\. Change that in your profile: http:\/\/.+\/profile/);

    await readAgain(ana.iccid, 3);
    await sys.restart('esim');
    await readAgain(ana.iccid, 3);
    await waitForQuiet(sys, 'the alerts sent');
    expect(await alerts(ana.iccid)).toEqual(['percent_used']);
    expect(sys.mail.mailsTo(ana.user.email).filter((m) => LOW.test(m.subject))).toHaveLength(1);
  });

  it('emails once more, and only once, when 100 MB or less are left', async () => {
    await keepGoControl(sys, { consume: { iccid: ana.iccid, mb: 80 } });
    await waitFor(async () => (await alerts(ana.iccid)).includes('mb_left'), { what: 'the 100 MB alert recorded', timeoutMs: 30_000 });
    await readAgain(ana.iccid, 3);
    await waitForQuiet(sys, 'the alerts sent');
    const low = sys.mail.mailsTo(ana.user.email).filter((m) => LOW.test(m.subject));
    expect(low).toHaveLength(2);
    expect(low[1].text).toContain('94 MB left');
    expect(await alerts(ana.iccid)).toEqual(['mb_left', 'percent_used']);
  });

  it('sends no alert to a user who turned data alerts off', async () => {
    await keepGoControl(sys, { consume: { iccid: bruno.iccid, mb: 1000 } });
    await waitFor(async () => (await alerts(bruno.iccid)).length === 2, { what: "the alerts of Bruno's line recorded", timeoutMs: 30_000 });
    await waitForQuiet(sys, 'the alerts handled');
    expect(sys.mail.mailsTo(bruno.user.email).filter((m) => LOW.test(m.subject))).toHaveLength(0);
  });
});
