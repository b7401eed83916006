import { DataSource } from 'typeorm';
import { waitFor } from '@esim/testing';
import { parseNotes } from '../../services/esim/src/keepgo/line-notes';
import { KeepGoEmulatorFaults } from '../../sandboxes/src/keepgo/keepgo-emulator-faults';
import { signUp } from '../support/accounts';
import type { HttpClient } from '../support/http-client';
import { ServiceProcess } from '../support/service-process';
import { startSystem, System } from '../support/system';
import { confirmPurchase, createPayment, payWithVisa } from '../purchases/purchases-support';
import { DEMO_ICCID, expectLedgerSound, FAST_PROVISIONING, redeem, Redeemer, redemptionRow, signUpRedeemer, topUp, topUpTo, transfersOf } from './redemption-support';

const TOP_UPS = 10;
const PURCHASES = 6;
const ENV = {
  ...FAST_PROVISIONING,
  // A short lease, so a provisioning whose worker died is picked up again within seconds.
  ESIM_PROVISIONING_LEASE_MS: '3000',
  // Generous: the machine running the tests may be loaded, and an unanswered order goes to a person.
  KEEPGO_TIMEOUT_MS: '10000',
  KEEPGO_RETRIES: '0',
  // Every order reads KeepGo's catalogue first, so a kill can land before the order leaves.
  KEEPGO_CATALOGUE_CACHE_SECONDS: '0',
  PURCHASE_CONFIRM_WAIT_MS: '300',
};

/**
 * esim as a cluster runs it (docs/keepgo.md, "Several replicas"): two replicas, one in this
 * process and one in a process of its own, sharing the database, the broker and the KeepGo
 * emulator. They race top-ups of one line and card purchases; then a replica is SIGKILLed while
 * KeepGo makes a purchase's line. KeepGo's own records (the emulator's tables) say what it was
 * asked to do.
 */
describe('esim with two replicas against the KeepGo emulator', () => {
  let sys: System;
  let replica: ServiceProcess | undefined;
  let kim: Redeemer;
  let buyer: HttpClient;

  const replicaEnv = () =>
    sys.ns.env('esim', {
      ...sys.mail.env(),
      PUBLIC_URL: sys.url,
      SANDBOXES_URL: sys.sandboxes.url,
      ...ENV,
      // Its log says which provider operations it carried out.
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
    }) as NodeJS.ProcessEnv;
  const faults = () => sys.sandboxes.app.get(KeepGoEmulatorFaults);
  const keepgo = () => sys.sandboxes.db('keepgo');
  /** What KeepGo carried out for our reference. */
  const providerOperations = async (reference: string) =>
    (await keepgo().query('SELECT kind, iccid FROM keepgo_sandbox_transactions WHERE idempotency_key = $1', [reference])) as Array<{
      kind: string;
      iccid: string;
    }>;
  const lineNotes = async (iccid: string) => parseNotes((await keepgo().query('SELECT notes FROM keepgo_sandbox_lines WHERE iccid = $1', [iccid]))[0].notes);
  const purchaseOf = async (client: HttpClient, purchaseId: string) =>
    ((await client.get('/api/esim-purchases')).json() as Array<{ id: string; status: string; iccid: string | null }>).find((p) => p.id === purchaseId);
  const buy = async (client: HttpClient, planType: string, country: string) => {
    const payment = await createPayment(client, { planType, country });
    expect((await payWithVisa(sys, payment)).status).toBe(200);
    expect((await confirmPurchase(client, payment.paymentIntentId)).status).toBe(200);
    return payment.purchaseId;
  };
  const purchaseSettled = (client: HttpClient, purchaseId: string) =>
    waitFor(
      async () => {
        const p = await purchaseOf(client, purchaseId);
        return p && p.status !== 'processing' ? p : null;
      },
      { timeoutMs: 60_000, what: `purchase ${purchaseId} to settle` },
    );

  beforeAll(async () => {
    sys = await startSystem({
      services: ['identity', 'rewards', 'esim', 'payments', 'notifications', 'webhooks'],
      env: ENV,
      gatewayEnv: { REDEEM_WAIT_MS: '300' },
    });
    replica = await ServiceProcess.start('esim', replicaEnv());
    kim = await signUpRedeemer(sys);
    buyer = sys.client();
    await signUp(buyer, sys.mail, { name: 'Bia' });
    // The whole product and a second esim process, on a machine that may be loaded.
  }, 180_000);
  afterAll(async () => {
    await replica?.stop();
    await sys?.stop();
  });

  it(`race ${TOP_UPS} top-ups of one line and ${PURCHASES} purchases: one refill per request, and the line's notes keep every one`, async () => {
    await topUpTo(sys, kim, TOP_UPS * 1000);
    const bundlesBefore = Number((await keepgo().query('SELECT count(*)::int AS n FROM keepgo_sandbox_data_bundles WHERE iccid = $1', [DEMO_ICCID]))[0].n);

    const [topUps, purchases] = await Promise.all([
      Promise.all(Array.from({ length: TOP_UPS }, () => redeem(kim.client, topUp(DEMO_ICCID)))),
      Promise.all(Array.from({ length: PURCHASES }, (_, i) => buy(buyer, i % 2 ? '10GB' : '1GB', i % 2 ? 'BR' : 'US'))),
    ]);
    const redemptionIds = topUps.map((res) => {
      expect({ status: res.status, body: res.text }).toEqual({ status: 200, body: expect.any(String) });
      return res.json().redemptionId as string;
    });

    for (const id of redemptionIds) {
      await waitFor(async () => (await redemptionRow(sys, id))?.status === 'completed', { timeoutMs: 60_000, what: `top-up ${id} to complete` });
    }
    for (const id of purchases) {
      const settled = await purchaseSettled(buyer, id);
      const why = settled.status === 'activated' ? null : (await sys.apps.esim!.get(DataSource).query('SELECT failure_reason, failure_message FROM provisionings WHERE redemption_id = $1', [id]))[0];
      expect({ ...settled, why }).toMatchObject({ status: 'activated', iccid: expect.any(String), why: null });
    }

    // One refill at KeepGo per top-up, each on the line, each spent once.
    for (const id of redemptionIds) {
      expect(await providerOperations(id)).toEqual([{ kind: 'refill', iccid: DEMO_ICCID }]);
      expect(await transfersOf(sys, id)).toEqual([
        { kind: 'reservation', amount: 1000 },
        { kind: 'redemption', amount: 1000 },
      ]);
    }
    const bundlesAfter = Number((await keepgo().query('SELECT count(*)::int AS n FROM keepgo_sandbox_data_bundles WHERE iccid = $1', [DEMO_ICCID]))[0].n);
    expect(bundlesAfter - bundlesBefore).toBe(TOP_UPS);
    // No note lost: every top-up's record is on the line, done, each naming its own data bundle.
    const records = (await lineNotes(DEMO_ICCID)).records.filter((r) => redemptionIds.includes(r.ref));
    expect(records.map((r) => r.ref).sort()).toEqual([...redemptionIds].sort());
    expect(records.every((r) => r.kind === 'refill' && r.state === 'done')).toBe(true);
    expect(new Set(records.map((r) => r.bundle)).size).toBe(TOP_UPS);
    // One line per purchase, carrying its reference.
    for (const id of purchases) {
      const [created, ...more] = await providerOperations(id);
      expect(more).toEqual([]);
      expect(created.kind).toBe('create');
      expect((await lineNotes(created.iccid)).records).toEqual([expect.objectContaining({ ref: id, kind: 'create', state: 'done' })]);
    }
    // Both replicas took part: the second one carried out some of the operations, not all of them.
    const byReplica = replica!.logs.split('\n').filter((l) => /"msg":"(refilled line|created line) /.test(l)).length;
    expect(byReplica).toBeGreaterThan(0);
    expect(byReplica).toBeLessThan(TOP_UPS + PURCHASES);
    await expectLedgerSound(sys);
    // Sixteen provider operations in a row on one loaded test machine, one line at a time.
  }, 240_000);

  it('a replica SIGKILLed while KeepGo makes a purchase’s line: the order is never sent again, one line per order, and the purchase waits for an operator', async () => {
    // The second replica alone works on it.
    await sys.apps.esim!.close();
    delete sys.apps.esim;
    faults().reset();
    faults().set({ mode: 'hang', path: 'POST /line/create', applyEffect: true });

    const purchaseId = await buy(buyer, '5GB', 'MX');
    await waitFor(async () => (await providerOperations(purchaseId)).length === 1, { what: 'KeepGo to make the line' });
    await replica!.kill();
    replica = undefined;
    const [made] = await providerOperations(purchaseId);
    // KeepGo made the line; its answer never came, so our reference is not in its notes.
    expect((await lineNotes(made.iccid)).records).toEqual([]);

    faults().reset();
    await sys.restart('esim');

    const settled = await purchaseSettled(buyer, purchaseId);
    expect(settled).toMatchObject({ status: 'manual_delivery_required', iccid: null });
    // Asked, not ordered again: one line for the order at KeepGo.
    expect(faults().count('POST /line/create')).toBe(0);
    expect(await providerOperations(purchaseId)).toEqual([{ kind: 'create', iccid: made.iccid }]);
    const [row] = await sys.apps.esim!.get(DataSource).query('SELECT status, failure_reason FROM provisionings WHERE redemption_id = $1', [purchaseId]);
    expect(row).toMatchObject({ status: 'manual_transfer_required', failure_reason: 'outcome_unknown' });
  });

  it('a replica SIGKILLed before a purchase’s order left: the next one orders it once and the purchase is activated', async () => {
    replica = await ServiceProcess.start('esim', replicaEnv());
    await sys.apps.esim!.close();
    delete sys.apps.esim;
    faults().reset();
    faults().set({ mode: 'hang', path: 'GET /bundles' });

    const purchaseId = await buy(buyer, '3GB', 'US');
    await waitFor(() => faults().count('GET /bundles') >= 1, { what: 'the catalogue read to hang' });
    await replica!.kill();
    replica = undefined;
    expect(faults().count('POST /line/create')).toBe(0);

    faults().reset();
    await sys.restart('esim');

    expect(await purchaseSettled(buyer, purchaseId)).toMatchObject({ status: 'activated', iccid: expect.any(String) });
    expect(faults().count('POST /line/create')).toBe(1);
    expect(await providerOperations(purchaseId)).toHaveLength(1);
  });

  it('12 purchases whose orders hang at KeepGo hold none of esim’s connections: another user’s wallet answers meanwhile, and each order is sent once', async () => {
    faults().reset();
    faults().set({ mode: 'hang', path: 'POST /line/create' });
    // A buyer of their own: the per-user limit on payments started.
    const crowd = sys.client();
    await signUp(crowd, sys.mail, { name: 'Caio' });
    const reader = sys.client();
    await signUp(reader, sys.mail, { name: 'Duda' });

    const purchaseIds = await Promise.all(Array.from({ length: 12 }, () => buy(crowd, '1GB', 'US')));
    // At least as many orders at KeepGo as one replica's worker runs at once (most of its connection pool).
    await waitFor(() => faults().count('POST /line/create') >= 8, { what: 'the orders to hang at KeepGo' });
    const wallet = await reader.get('/api/esim-lines');
    expect(wallet.status).toBe(200);
    expect(wallet.json()).toEqual({ lines: [] });
    // It answered while every order still hung: none has an outcome yet (an order held inside a
    // transaction would have had to end before the read got a connection).
    const [{ n: answered }] = await sys.apps.esim!.get(DataSource).query(
      `SELECT count(*)::int AS n FROM outbox_events WHERE routing_key LIKE 'esim.purchase-esim-%' AND envelope->'payload'->>'purchaseId' = ANY($1::text[])`,
      [purchaseIds],
    );
    expect(answered).toBe(0);

    for (const id of purchaseIds) {
      // Each hung order times out; KeepGo cannot tell what became of it, so a person takes over.
      expect(await purchaseSettled(crowd, id)).toMatchObject({ status: 'manual_delivery_required' });
      expect(await providerOperations(id)).toEqual([]);
    }
    // Each order sent once, none again after its timeout.
    expect(faults().count('POST /line/create')).toBe(purchaseIds.length);
    faults().reset();
  }, 240_000);
});
