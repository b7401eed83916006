import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { TEST_DATABASE_URL, waitFor } from '@esim/testing';
import { keepGoControl } from '../purchases/purchases-support';
import { balance, FAST_PROVISIONING, newEsim, redeem, Redeemer, signUpRedeemer, topUpTo } from '../redemption/redemption-support';
import { ServiceProcess } from '../support/service-process';
import { startSystem, System } from '../support/system';

const ENV = { ...FAST_PROVISIONING, ESIM_USAGE_CHECK_SECONDS: '1', ESIM_LINE_USAGE_REFRESH_SECONDS: '0' };
const STARTED = /^Automatic top-up: 1 GB on its way$/;
/** The advisory lock a test holds to stop a statement where it stands (see `holdBefore`). */
const HOLD = 6801;

/**
 * An esim replica SIGKILLed in the middle of an automatic top-up (docs/wallet.md, "Top-up with
 * points"): while rewards is working on the trigger's redemption, and after rewards answered but
 * before esim recorded the answer. Either way the trigger is still pending when a replica starts
 * again; it asks rewards again with the trigger's Idempotency-Key and gets the same redemption:
 * one redemption per trigger, the points spent once, the user told once.
 *
 * The replica is stopped at the exact statement by a Postgres trigger the test adds, which waits
 * for an advisory lock the test holds: the process is real, and so is the crash.
 */
describe('wallet: automatic top-up across an esim crash', () => {
  let sys: System;
  let ana: Redeemer;
  let iccid = '';
  let replica: ServiceProcess | undefined;
  let holder: Client;

  const db = (service: 'esim' | 'rewards') =>
    new Client({ connectionString: TEST_DATABASE_URL, options: `-c search_path=${sys.ns.schema(service)}` });
  const rewardsDb = () => sys.apps.rewards!.get(DataSource);
  const topups = async () =>
    (await rewardsDb().query(`SELECT id, status FROM redemptions WHERE user_id = $1 AND kind = 'topup' ORDER BY created_at`, [
      ana.id,
    ])) as Array<{
      id: string;
      status: string;
    }>;
  const triggers = async () => {
    const esim = db('esim');
    await esim.connect();
    try {
      return (await esim.query('SELECT status, redemption_id FROM auto_topup_triggers WHERE iccid = $1 ORDER BY created_at', [iccid]))
        .rows as Array<{
        status: string;
        redemption_id: string | null;
      }>;
    } finally {
      await esim.end();
    }
  };
  const waiting = async () =>
    Number(
      (await holder.query(`SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND objid = $1 AND NOT granted`, [HOLD]))
        .rows[0].n,
    );

  /**
   * Until `release`, every `event` on `table` of the service's schema waits, inside its
   * transaction, for the lock the test holds.
   */
  async function holdBefore(
    service: 'esim' | 'rewards',
    table: string,
    event: 'INSERT' | 'UPDATE',
  ): Promise<{ release: () => Promise<void> }> {
    const c = db(service);
    await c.connect();
    await holder.query('SELECT pg_advisory_lock($1)', [HOLD]);
    await c.query(
      `CREATE FUNCTION test_hold() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_advisory_xact_lock(${HOLD}); RETURN NEW; END $$`,
    );
    await c.query(`CREATE TRIGGER test_hold BEFORE ${event} ON ${table} FOR EACH ROW EXECUTE FUNCTION test_hold()`);
    return {
      // The lock first: a held statement keeps its table locked, so the trigger could not be dropped
      // before it goes on (a killed replica's transaction then ends with its connection, uncommitted).
      release: async () => {
        await holder.query('SELECT pg_advisory_unlock($1)', [HOLD]);
        await c.query(`DROP TRIGGER test_hold ON ${table}`);
        await c.query('DROP FUNCTION test_hold()');
        await c.end();
      },
    };
  }

  const replicaEnv = () =>
    sys.ns.env('esim', {
      ...sys.mail.env(),
      PUBLIC_URL: sys.url,
      SANDBOXES_URL: sys.sandboxes.url,
      ...ENV,
    }) as NodeJS.ProcessEnv;

  /** The in-process esim stops: the replica in its own process is the only one reading the line. */
  async function onlyTheReplica(): Promise<ServiceProcess> {
    await sys.apps.esim?.close();
    delete sys.apps.esim;
    return ServiceProcess.start('esim', replicaEnv());
  }

  beforeAll(async () => {
    sys = await startSystem({
      services: ['identity', 'rewards', 'esim', 'notifications'],
      env: ENV,
      gatewayEnv: { REDEEM_WAIT_MS: '30000' },
    });
    holder = new Client({ connectionString: TEST_DATABASE_URL });
    await holder.connect();
    ana = await signUpRedeemer(sys);
    expect((await ana.client.patch('/api/user/settings', { locale: 'en' })).status).toBe(200);
    await topUpTo(sys, ana, 3500);
    expect((await redeem(ana.client, newEsim('1GB', 'US'))).status).toBe(200);
    iccid = await waitFor(async () => (await ana.client.get('/api/esim-lines')).json().lines?.[0]?.iccid as string | undefined, {
      what: 'the new eSIM in the wallet',
      timeoutMs: 30_000,
    });
    await waitFor(async () => (await balance(ana.client)) === 2500, { what: 'the redemption settled' });
    expect((await ana.client.put(`/api/esim-lines/${iccid}/auto-topup`, { enabled: true, belowMb: 300, monthlyCap: 2 })).status).toBe(200);
  }, 120_000);

  afterAll(async () => {
    await replica?.stop();
    await holder?.end();
    await sys?.stop();
  });

  it('killed after rewards answered, before esim recorded it: one redemption, 1,000 points spent once, told once', async () => {
    replica = await onlyTheReplica();
    const hold = await holdBefore('esim', 'auto_topup_triggers', 'UPDATE');
    try {
      await keepGoControl(sys, { consume: { iccid, mb: 800 } });
      // Rewards took the points for the trigger; esim's statement recording it waits on the hold.
      await waitFor(async () => (await topups()).length === 1 && (await waiting()) > 0, {
        what: 'the answer received, its record held',
        timeoutMs: 60_000,
      });
      await replica.kill();
      replica = undefined;
    } finally {
      await hold.release();
    }
    expect(await triggers()).toEqual([{ status: 'pending', redemption_id: null }]);

    await sys.restart('esim');
    await waitFor(async () => (await triggers())[0]?.status === 'requested', {
      what: 'the trigger asked again after the restart',
      timeoutMs: 60_000,
    });
    const [only, ...more] = await topups();
    expect(more).toEqual([]);
    expect((await triggers())[0].redemption_id).toBe(only.id);
    await waitFor(
      async () => (await rewardsDb().query('SELECT status FROM redemptions WHERE id = $1', [only.id]))[0].status === 'completed',
      {
        what: 'the top-up delivered',
        timeoutMs: 60_000,
      },
    );
    expect(await balance(ana.client)).toBe(1500);
    await sys.mail.waitForMail(ana.email, { subject: STARTED, timeoutMs: 30_000 });
    expect(sys.mail.mailsTo(ana.email).filter((m) => STARTED.test(m.subject))).toHaveLength(1);
  }, 240_000);

  it('killed while rewards works on the redemption: after the restart the same redemption, spent once', async () => {
    replica = await onlyTheReplica();
    const hold = await holdBefore('rewards', 'redemptions', 'INSERT');
    try {
      // The line after the first top-up holds 2048 MB: down to 224 again, a new data cycle.
      await keepGoControl(sys, { consume: { iccid, mb: 1024 } });
      await waitFor(async () => (await waiting()) > 0 && (await triggers()).length === 2, {
        what: 'the request held in rewards',
        timeoutMs: 60_000,
      });
      await replica.kill();
      replica = undefined;
    } finally {
      await hold.release();
    }
    // Rewards finishes the request the dead replica sent; its answer goes nowhere.
    await waitFor(async () => (await topups()).length === 2, { what: 'the held redemption written', timeoutMs: 30_000 });
    expect((await triggers())[1]).toEqual({ status: 'pending', redemption_id: null });

    await sys.restart('esim');
    await waitFor(async () => (await triggers())[1]?.status === 'requested', {
      what: 'the trigger asked again after the restart',
      timeoutMs: 60_000,
    });
    const all = await topups();
    expect(all).toHaveLength(2);
    expect((await triggers())[1].redemption_id).toBe(all[1].id);
    await waitFor(async () => (await balance(ana.client)) === 500, { what: 'the second 1,000 points spent', timeoutMs: 60_000 });
    await waitFor(async () => sys.mail.mailsTo(ana.email).filter((m) => STARTED.test(m.subject)).length === 2, {
      what: 'the second notice',
      timeoutMs: 30_000,
    });
    // Spent once each: 500 left, however many times the trigger was asked for.
    expect(await balance(ana.client)).toBe(500);
  }, 240_000);
});
