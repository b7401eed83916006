import { OperatorQueueResponse } from '@esim/contracts';
import { waitFor } from '@esim/testing';
import { KeepGoEmulatorFaults } from '../../sandboxes/src/keepgo/keepgo-emulator-faults';
import es from '../../services/notifications/src/templates/locales/es.json';
import { refundIdempotencyKey } from '../../services/payments/src/operator-queue/purchase-resolutions';
import { confirmPurchase, createPayment, payWithVisa, serverStripe } from '../purchases/purchases-support';
import { credit, DEMO_ICCID, expectLedgerSound, ledgerBalance, newEsim, redeem, Redeemer, signUpRedeemer, topUp, transfersOf } from '../redemption/redemption-support';
import { uniqueEmail } from '../support/accounts';
import type { HttpResponse } from '../support/http-client';
import { waitForQuiet } from '../support/quiet';
import type { System } from '../support/system';
import { sql, startAdminSystem } from './admin-support';

const BOSS = uniqueEmail('boss');
const OPS = uniqueEmail('ops');
const LPA = 'LPA:1$smdp.operator.example$HAND-DELIVERED-0001';
const HAND_ICCID = '8901234567890123452';

/**
 * The operator queue over HTTP: stuck deliveries and purchases, each resolved exactly once however
 * many admins click at once, with one email and one ledger (or Stripe) effect.
 */
describe('the operator queue', () => {
  let sys: System;
  let boss: Redeemer;
  let ops: Redeemer;
  let ana: Redeemer;
  let faults: KeepGoEmulatorFaults;

  beforeAll(async () => {
    // One provider attempt: an unreachable provider turns a redemption into manual transfer at once.
    sys = await startAdminSystem(`${BOSS},${OPS}`, { withPayments: true, env: { ESIM_PROVISIONING_ATTEMPTS: '1', PURCHASE_CONFIRM_WAIT_MS: '15000' } });
    faults = sys.sandboxes.app.get(KeepGoEmulatorFaults);
    [boss, ops, ana] = await Promise.all([
      signUpRedeemer(sys, { email: BOSS, name: 'Boss' }),
      signUpRedeemer(sys, { email: OPS, name: 'Ops' }),
      signUpRedeemer(sys, { name: 'Ana Stuck' }),
    ]);
    // Emails follow the language the user chose.
    expect((await ana.client.patch('/api/user/settings', { locale: 'es' })).status).toBe(200);
  });
  afterEach(async () => {
    faults.reset();
    await expectLedgerSound(sys);
  });
  afterAll(() => sys?.stop());

  const queue = async (as = boss): Promise<OperatorQueueResponse['items']> => {
    const res = await as.client.get('/api/admin/operator-queue');
    expect(res.status).toBe(200);
    return (res.json() as OperatorQueueResponse).items;
  };
  const act = (as: Redeemer, kind: string, id: string, action: string, body?: unknown) => as.client.post(`/api/admin/operator-queue/${kind}/${id}/${action}`, body);

  /** A points redemption the provider could not take: it waits for a person with its points reserved. */
  async function stuckRedemption(body: Record<string, string> = newEsim('1GB', 'MX')): Promise<string> {
    const points = await ledgerBalance(sys, ana.id);
    if (points < 1100) await credit(sys, ana.id, 1100 - points);
    faults.set({ mode: 'fail' });
    try {
      const res = await redeem(ana.client, body);
      expect(res.json()).toMatchObject({ status: 'manual_transfer_required' });
      return res.json().redemptionId;
    } finally {
      faults.reset();
    }
  }

  /** Mails to Ana from now on, once nothing that could send another is on its way. */
  async function mailsAfter(before: number, subject: RegExp): Promise<string[]> {
    await sys.mail.waitForMail(ana.email, { after: before, subject });
    await waitForQuiet(sys, 'every event and email on its way');
    return sys.mail.messages.slice(before).filter((m) => m.to.includes(ana.email.toLowerCase())).map((m) => m.subject);
  }

  it('lists a stuck redemption with its user and history, to admins only', async () => {
    const id = await stuckRedemption();
    const item = (await queue()).find((i) => i.id === id);
    expect(item).toMatchObject({
      kind: 'redemption',
      reason: 'manual_transfer_required',
      status: 'manual_transfer_required',
      user: { id: ana.id, name: 'Ana Stuck', email: ana.email },
      planTier: '1GB',
      points: 1000,
      purchaseType: 'new',
      country: 'MX',
      failure: { reason: 'unavailable', message: expect.stringContaining('manually') },
      actions: ['retry', 'deliver', 'refund'],
    });
    expect(item!.history.map((h) => h.event)).toEqual(['points_reserved', 'provider_attempts', 'failed']);
    expect((await ana.client.get('/api/admin/operator-queue')).status).toBe(403);
    expect((await sys.client().get('/api/admin/operator-queue')).status).toBe(401);
    expect((await act(ana, 'redemption', id, 'refund')).status).toBe(403);
    // Leave it resolved for the next tests, its email sent: the next test counts only its own
    // (it once found this refund's email arriving late beside its own, in CI).
    const mails = sys.mail.messages.length;
    expect((await act(boss, 'redemption', id, 'refund')).status).toBe(200);
    await sys.mail.waitForMail(ana.email, { after: mails, subject: /./ });
  });

  it('resolves a redemption once when two admins refund it at once: one release, one email in the user language', async () => {
    const id = await stuckRedemption();
    const before = await ledgerBalance(sys, ana.id);
    const mails = sys.mail.messages.length;
    const answers: HttpResponse[] = await Promise.all([act(boss, 'redemption', id, 'refund'), act(ops, 'redemption', id, 'refund')]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const won = answers.find((a) => a.status === 200)!;
    const lost = answers.find((a) => a.status === 409)!;
    expect(won.json()).toMatchObject({ kind: 'redemption', id, action: 'refund', status: 'failed' });
    expect(lost.json()).toMatchObject({ reason: 'already_resolved' });

    await waitFor(async () => (await ledgerBalance(sys, ana.id)) === before + 1000, { what: 'the points released' });
    expect(await transfersOf(sys, id)).toEqual([
      { kind: 'reservation', amount: 1000 },
      { kind: 'release', amount: 1000 },
    ]);
    expect(await mailsAfter(mails, /./)).toEqual([es.pointsReturned.subject.replace('{{points}}', '1000')]);
    expect((await queue()).find((i) => i.id === id)).toBeUndefined();
    expect((await ana.client.get(`/api/redemptions/${id}`)).json()).toMatchObject({ status: 'failed' });
    // A third click, later: still resolved once.
    expect((await act(ops, 'redemption', id, 'deliver', { iccid: HAND_ICCID, lpaCode: LPA })).status).toBe(409);
  });

  it('records a delivery by hand once: ICCID and LPA code checked, the points spent once, the eSIM emailed', async () => {
    const id = await stuckRedemption(newEsim('1GB', 'US'));
    for (const bad of [{ iccid: '1234', lpaCode: LPA }, { iccid: HAND_ICCID, lpaCode: 'not an activation code' }, { iccid: HAND_ICCID }]) {
      const res = await act(boss, 'redemption', id, 'deliver', bad);
      expect({ bad, status: res.status }).toEqual({ bad, status: 400 });
    }
    const mails = sys.mail.messages.length;
    const answers = await Promise.all([act(boss, 'redemption', id, 'deliver', { iccid: HAND_ICCID, lpaCode: LPA }), act(ops, 'redemption', id, 'deliver', { iccid: HAND_ICCID, lpaCode: LPA })]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    await waitFor(async () => (await ana.client.get(`/api/redemptions/${id}`)).json().status === 'esim_activation_ready', { what: 'the redemption settled' });
    expect((await ana.client.get(`/api/redemptions/${id}`)).json()).toMatchObject({ iccid: HAND_ICCID, lpaCode: LPA });
    expect(await transfersOf(sys, id)).toEqual([
      { kind: 'reservation', amount: 1000 },
      { kind: 'redemption', amount: 1000 },
    ]);
    expect(await mailsAfter(mails, /./)).toEqual([es.esimReady.subject]);
    const lines = (await ana.client.get('/api/esim-lines')).json();
    expect(JSON.stringify(lines)).toContain(HAND_ICCID);
    const item = await sql<{ action: string }>(`SELECT action FROM "${sys.ns.schema('esim')}".provisioning_operator_actions a JOIN "${sys.ns.schema('esim')}".provisionings p ON p.id = a.provisioning_id WHERE p.redemption_id = $1 ORDER BY a.seq`, [id]);
    expect(item.map((r) => r.action)).toEqual(['deliver', 'outcome']);
  });

  it('retries through the provider once it is back, and tells the user the top-up arrived', async () => {
    const id = await stuckRedemption(topUp(DEMO_ICCID, '1GB'));
    const mails = sys.mail.messages.length;
    const answers = await Promise.all([act(boss, 'redemption', id, 'retry'), act(ops, 'redemption', id, 'retry')]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    await waitFor(async () => (await ana.client.get(`/api/redemptions/${id}`)).json().status === 'completed', { what: 'the retried top-up' });
    expect(await transfersOf(sys, id)).toEqual([
      { kind: 'reservation', amount: 1000 },
      { kind: 'redemption', amount: 1000 },
    ]);
    expect(await mailsAfter(mails, /./)).toEqual([es.dataDelivered.subject.replace('{{amountGB}}', '1')]);
  });

  it('refunds a card purchase through Stripe once, with our idempotency key, however many admins click', async () => {
    faults.set({ mode: 'fail', path: 'POST /line/create' });
    const payment = await createPayment(ana.client, { planType: '3GB', country: 'BR' });
    expect((await payWithVisa(sys, payment)).status).toBe(200);
    expect((await confirmPurchase(ana.client, payment.paymentIntentId)).json()).toMatchObject({ status: 'manual_delivery_required' });
    faults.reset();

    const item = (await queue()).find((i) => i.id === payment.purchaseId);
    // Bought from Brazil: the catalogue's price in reais (libs/contracts/src/catalogue/plans.ts).
    expect(item).toMatchObject({ kind: 'purchase', reason: 'manual_delivery_required', priceCents: 2490, planTier: '3GB', actions: ['retry', 'deliver', 'refund'] });
    expect(item!.history.map((h) => h.event)).toEqual(['created', 'paid', 'failed']);

    const mails = sys.mail.messages.length;
    const answers = await Promise.all([0, 1, 2].map((i) => act(i % 2 ? ops : boss, 'purchase', payment.purchaseId, 'refund')));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409]);
    const refundId = answers.find((a) => a.status === 200)!.json().refundId as string;
    expect(refundId).toMatch(/^re_/);

    const payments = sys.ns.schema('payments');
    const stripeSandbox = sys.sandboxes.schema('stripe');
    const refunds = await sql<{ id: string; amount: number }>(
      `SELECT id, (data->>'amount')::int AS amount FROM "${stripeSandbox}".sandbox_stripe_objects WHERE object = 'refund' AND data->>'payment_intent' = $1`,
      [payment.paymentIntentId],
    );
    expect(refunds).toEqual([{ id: refundId, amount: 2490 }]);
    const keys = await sql<{ key: string }>(`SELECT key FROM "${stripeSandbox}".sandbox_stripe_idempotency_keys WHERE key LIKE $1`, [`%:${refundIdempotencyKey(payment.purchaseId)}`]);
    expect(keys).toHaveLength(1);
    // Asked again with our key (a retry after a lost answer), Stripe answers the same refund.
    const again = await serverStripe(sys).refunds.create(
      { payment_intent: payment.paymentIntentId, reason: 'requested_by_customer', metadata: { purchaseId: payment.purchaseId } },
      { idempotencyKey: refundIdempotencyKey(payment.purchaseId) },
    );
    expect(again.id).toBe(refundId);

    const [row] = await sql<{ status: string }>(`SELECT status FROM "${payments}".esim_purchases WHERE id = $1`, [payment.purchaseId]);
    expect(row.status).toBe('refunded');
    expect(await mailsAfter(mails, /./)).toEqual([es.purchaseRefunded.subject.replace('{{amountGB}}', '3')]);
    expect((await queue()).find((i) => i.id === payment.purchaseId)).toBeUndefined();
  });

  it('delivers a card purchase by hand: the line joins the wallet and the user gets the eSIM email', async () => {
    faults.set({ mode: 'fail', path: 'POST /line/create' });
    const payment = await createPayment(ana.client, { planType: '1GB', country: 'US' });
    expect((await payWithVisa(sys, payment)).status).toBe(200);
    expect((await confirmPurchase(ana.client, payment.paymentIntentId)).json()).toMatchObject({ status: 'manual_delivery_required' });
    faults.reset();
    const mails = sys.mail.messages.length;
    const iccid = '8901234567890123460';
    const res = await act(boss, 'purchase', payment.purchaseId, 'deliver', { iccid, lpaCode: LPA });
    expect(res.json()).toMatchObject({ status: 'activated' });
    const listed = (await ana.client.get('/api/esim-purchases')).json().find((p: { id: string }) => p.id === payment.purchaseId);
    expect(listed).toMatchObject({ status: 'activated', iccid, lpaCode: LPA, qrCode: expect.stringMatching(/^data:image\/png;base64,/) });
    await waitFor(async () => JSON.stringify((await ana.client.get('/api/esim-lines')).json()).includes(iccid), { what: 'the wallet line' });
    // The eSIM, and the purchase's receipt now that it has one (docs/payments.md, "Receipts").
    expect((await mailsAfter(mails, /./)).sort()).toEqual([es.esimReady.subject, es.purchaseReceipt.subject.replace('{{amountGB}}', '1')].sort());
    expect((await act(ops, 'purchase', payment.purchaseId, 'refund')).status).toBe(409);
  });

  it('retries a card purchase whose order failed: esim orders it again under the same reference, once, and the purchase is activated', async () => {
    faults.set({ mode: 'fail', path: 'POST /line/create' });
    const payment = await createPayment(ana.client, { planType: '5GB', country: 'US' });
    expect((await payWithVisa(sys, payment)).status).toBe(200);
    expect((await confirmPurchase(ana.client, payment.paymentIntentId)).json()).toMatchObject({ status: 'manual_delivery_required' });
    faults.reset();

    expect((await act(boss, 'purchase', payment.purchaseId, 'retry')).json()).toMatchObject({ status: 'processing' });
    const purchase = () => ana.client.get('/api/esim-purchases').then((r) => (r.json() as Array<{ id: string; status: string; iccid: string | null }>).find((p) => p.id === payment.purchaseId));
    await waitFor(async () => (await purchase())?.status === 'activated', { what: 'the retried purchase' });
    const orders = await sql<{ iccid: string }>(`SELECT iccid FROM "${sys.sandboxes.schema('keepgo')}".keepgo_sandbox_transactions WHERE idempotency_key = $1`, [payment.purchaseId]);
    expect(orders).toEqual([{ iccid: (await purchase())!.iccid }]);
  });

  it('writes every resolution to the audit trail with who did it and what came of it', async () => {
    const entries = (await boss.client.get('/api/admin/audit?limit=200')).json().entries as Array<Record<string, any>>;
    const refunds = entries.filter((e) => e.action === 'operator_refund');
    expect(refunds.length).toBeGreaterThanOrEqual(4);
    expect(refunds.filter((e) => e.outcome === 'succeeded').length).toBeGreaterThanOrEqual(2);
    expect(refunds.filter((e) => e.outcome === 'failed').every((e) => /no longer waiting/.test(e.outcomeMessage))).toBe(true);
    expect(new Set(refunds.map((e) => e.actor))).toEqual(new Set([BOSS, OPS]));
    expect(entries.find((e) => e.action === 'operator_deliver' && e.outcome === 'succeeded')).toMatchObject({ targetType: expect.any(String), details: { iccid: expect.any(String) } });
  });
});
