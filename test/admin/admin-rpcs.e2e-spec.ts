import { randomUUID } from 'node:crypto';
import { CreateEsimPaymentResponse, RpcDefinition, SERVICE_PORTS } from '@esim/contracts';
import { AppError, RpcClient } from '@esim/platform';
import { asUser, TEST_AMQP_URL, waitFor } from '@esim/testing';
import { confirmPurchase, createPayment, keepGoControl, payWithVisa } from '../purchases/purchases-support';
import { Redeemer, signUpRedeemer } from '../redemption/redemption-support';
import { uniqueEmail } from '../support/accounts';
import type { System } from '../support/system';
import { sql, startAdminSystem } from './admin-support';

const BOSS = uniqueEmail('boss');

/**
 * Every admin-only RPC straight on the broker, as any client with broker credentials could send it
 * (no gateway, no AdminGuard): the answering service refuses a non-admin acting user with 403 and
 * writes nothing, refuses a call without an acting user with 401, and answers an admin.
 */
describe('admin-only RPCs, called past the gateway', () => {
  let sys: System;
  let rpc: RpcClient;
  let boss: Redeemer;
  let mallory: Redeemer;
  /** A paid purchase whose eSIM was not issued: an operator can refund it. */
  let purchase: CreateEsimPaymentResponse;

  beforeAll(async () => {
    sys = await startAdminSystem(BOSS, { withPayments: true });
    rpc = new RpcClient({ exchange: `${sys.ns.id}.events`, queuePrefix: `${sys.ns.id}.`, url: TEST_AMQP_URL, timeoutMs: 15_000 });
    [boss, mallory] = await Promise.all([signUpRedeemer(sys, { email: BOSS, name: 'Boss' }), signUpRedeemer(sys, { name: 'Mallory' })]);
    await keepGoControl(sys, { mode: 'fail', path: 'POST /line/create' });
    try {
      purchase = await createPayment(mallory.client, { planType: '5GB', country: 'GB' });
      expect((await payWithVisa(sys, purchase)).status).toBe(200);
      expect((await confirmPurchase(mallory.client, purchase.paymentIntentId)).json()).toMatchObject({ status: 'manual_delivery_required' });
    } finally {
      await keepGoControl(sys, { reset: true });
    }
  });
  afterAll(async () => {
    await rpc?.close();
    await sys?.stop();
  });

  /** A valid request for each admin-only RPC: the ones that change something name real rows. */
  const requests = (): Record<string, unknown> => ({
    'esim.admin-test-provider': {},
    'esim.admin-list-operator-queue': { limit: 50 },
    'esim.admin-provisioning-statuses': { redemptionIds: [randomUUID()] },
    'esim.admin-resolve-redemption': { redemptionId: randomUUID(), source: 'gift', action: 'refund' },
    'esim.grant-gift': { recipientId: mallory.id, planTier: '5GB' },
    'esim.get-gift-totals': {},
    'esim.get-gift-summaries': { userIds: [mallory.id] },
    'identity.admin-search-users': { sort: 'createdAt', order: 'asc', limit: 10 },
    'identity.admin-get-users': { userIds: [mallory.id, boss.id] },
    'identity.admin-search-user-ids': { q: 'mallory' },
    'identity.audit-record': { id: randomUUID(), action: 'made_up_action', targetType: 'user', targetId: mallory.id },
    'identity.audit-list': { limit: 10 },
    'identity.admin-linked-accounts': { limit: 10 },
    'identity.admin-linked-group': { groupId: randomUUID(), notSamePerson: false },
    'rewards.admin-rank-by-points': { order: 'desc', limit: 10 },
    'rewards.admin-list-stuck-redemptions': { limit: 50 },
    'rewards.admin-get-redemption-facts': { redemptionId: randomUUID() },
    'rewards.admin-retry-redemption': { redemptionId: randomUUID() },
    'rewards.get-balances': { userIds: [mallory.id] },
    'rewards.admin-stats': {},
    'rewards.admin-reversal-rates': { userIds: [mallory.id] },
    'rewards.admin-list-credit-claims': { limit: 10 },
    'rewards.admin-decide-credit-claim': { claimId: randomUUID(), decision: 'credit', points: 100 },
    'rewards.admin-redemption-risk-queue': { limit: 10 },
    'rewards.admin-decide-redemption-review': { redemptionId: randomUUID(), decision: 'reject', reason: 'Linked to another account' },
    'rewards.admin-control-redemptions': { userIds: [mallory.id], action: 'pause', reason: 'Reversals under investigation' },
    'rewards.admin-redemption-standings': { userIds: [mallory.id] },
    'payments.admin-list-operator-queue': { limit: 50 },
    'payments.admin-list-refunds': { limit: 50 },
    'payments.admin-resolve-purchase': { purchaseId: purchase.purchaseId, action: 'refund' },
  });
  const adminRpcs = (): RpcDefinition[] => Object.values(SERVICE_PORTS).flatMap((p) => p.answers.filter((d) => d.admin));
  const call = (def: RpcDefinition, as: string | undefined) => {
    const send = () => rpc.call(def, requests()[def.pattern] as never);
    return as ? asUser(as, send) : send();
  };
  const refusal = (p: Promise<unknown>) =>
    p.then(
      () => null,
      (err: unknown) => (err instanceof AppError ? { code: err.code, status: err.status, reason: err.reason } : { code: String(err), status: 0, reason: undefined }),
    );

  /**
   * Every row of the services' schemas, but for what changes by itself: the outbox by event id (the
   * relay marks rows published) and the points projection without its refresh time.
   */
  async function snapshot(): Promise<Record<string, string>> {
    const tables = await sql<{ schema: string; name: string }>(
      `SELECT table_schema AS schema, table_name AS name FROM information_schema.tables
        WHERE table_type = 'BASE TABLE' AND table_schema = ANY($1) ORDER BY 1, 2`,
      [['identity', 'rewards', 'esim', 'payments'].map((s) => sys.ns.schema(s as never))],
    );
    const out: Record<string, string> = {};
    for (const { schema, name } of tables) {
      const rows = name === 'outbox_events' ? 't.id::text' : name === 'admin_points_rank' ? "t.user_id || ':' || t.points" : 't::text';
      const [{ digest }] = await sql<{ digest: string }>(`SELECT md5(coalesce(string_agg(${rows}, '|' ORDER BY ${rows}), '')) AS digest FROM "${schema}"."${name}" t`);
      out[`${schema}.${name}`] = digest;
    }
    return out;
  }

  /** The refunds the Stripe emulator holds for the purchase's intent. */
  const refundsAtStripe = () =>
    sql<{ amount: number }>(
      `SELECT (data->>'amount')::int AS amount FROM "${sys.sandboxes.schema('stripe')}".sandbox_stripe_objects WHERE object = 'refund' AND data->>'payment_intent' = $1`,
      [purchase.paymentIntentId],
    );

  it('has a request here for every admin-only RPC the ports declare', () => {
    expect(adminRpcs().map((d) => d.pattern).sort()).toEqual(Object.keys(requests()).sort());
  });

  it('refuses a non-admin acting user with 403 on every admin-only RPC, and nothing is written anywhere', async () => {
    // Quiet first: the sign-ups' events and the purchase have settled.
    let before = await snapshot();
    await waitFor(
      async () => {
        const now = await snapshot();
        const settled = JSON.stringify(now) === JSON.stringify(before);
        before = now;
        return settled;
      },
      { what: 'the services to settle' },
    );
    const answers = [];
    for (const def of adminRpcs()) answers.push({ pattern: def.pattern, refused: await refusal(call(def, mallory.id)) });
    expect(answers).toEqual(adminRpcs().map((def) => ({ pattern: def.pattern, refused: { code: 'forbidden', status: 403, reason: 'not_admin' } })));
    expect(await snapshot()).toEqual(before);
    // The card was not refunded, no gift was granted, nothing entered the trail in her name.
    expect(await refundsAtStripe()).toEqual([]);
    expect(await sql(`SELECT id FROM "${sys.ns.schema('esim')}".data_gifts WHERE user_id = $1`, [mallory.id])).toEqual([]);
    expect(await sql(`SELECT id FROM "${sys.ns.schema('identity')}".admin_audit_log WHERE actor_id = $1`, [mallory.id])).toEqual([]);
  });

  it('refuses a call without an acting user with 401', async () => {
    const answers = [];
    for (const def of adminRpcs()) answers.push({ pattern: def.pattern, refused: await refusal(call(def, undefined)) });
    expect(answers).toEqual(adminRpcs().map((def) => ({ pattern: def.pattern, refused: expect.objectContaining({ code: 'unauthorized', status: 401 }) })));
  });

  it('refuses an acting user id that is no account at all', async () => {
    const nobody = randomUUID();
    const [grant] = adminRpcs().filter((d) => d.pattern === 'esim.grant-gift');
    expect(await refusal(call(grant, nobody))).toMatchObject({ code: 'forbidden', status: 403 });
  });

  it('answers an admin on every admin-only RPC: the gift is granted, the card refunded', async () => {
    const answers = [];
    for (const def of adminRpcs()) {
      const outcome = await refusal(call(def, boss.id));
      // Unknown ids answer 404 or 409 (the admin got past the check); never 401 or 403.
      answers.push({ pattern: def.pattern, refusedAsCaller: outcome !== null && [401, 403].includes(outcome.status) });
    }
    expect(answers).toEqual(adminRpcs().map((def) => ({ pattern: def.pattern, refusedAsCaller: false })));
    expect(await sql(`SELECT status, granted_by FROM "${sys.ns.schema('esim')}".data_gifts WHERE user_id = $1`, [mallory.id])).toEqual([{ status: 'granted', granted_by: boss.id }]);
    expect(await sql(`SELECT status FROM "${sys.ns.schema('payments')}".esim_purchases WHERE id = $1`, [purchase.purchaseId])).toEqual([{ status: 'refunded' }]);
    expect(await refundsAtStripe()).toEqual([{ amount: purchase.amountCents }]);
    expect(await sql(`SELECT action FROM "${sys.ns.schema('identity')}".admin_audit_log WHERE actor_id = $1 AND action = 'made_up_action'`, [boss.id])).toEqual([{ action: 'made_up_action' }]);
  });
});
