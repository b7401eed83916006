import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { DeletedAccounts, openDataSource } from '@esim/platform';
import { TEST_DATABASE_URL, TestNamespace } from '@esim/testing';
import { Purchases1732062000000 } from '../migrations/1732062000000-purchases';
import { PaymentsOperatorQueue1734200000000 } from '../migrations/1734200000000-operator-queue';
import { PaymentsReconciliation1734300000000 } from '../migrations/1734300000000-reconciliation';
import { StripeSandboxMoved1737000000000 } from '../migrations/1737000000000-stripe-sandbox-moved';
import { PurchaseCurrency1738000000000 } from '../migrations/1738000000000-purchase-currency';
import { PurchasePaymentMethod1739000000000 } from '../migrations/1739000000000-purchase-payment-method';
import { PurchaseRefunds1739100000000 } from '../migrations/1739100000000-purchase-refunds';
import { PaymentsLateWrites1739500000000 } from '../migrations/1739500000000-late-writes-of-deleted-accounts';

const ICCID = '8999000000000088888';
const LPA = 'LPA:1$late.example$PAID-CODE';

/**
 * Late events after a deletion (docs/accounts.md, "Late events") on payments' schema: a purchase
 * paid for before the deletion whose eSIM is issued after it is activated without the eSIM's
 * details; another account's purchase keeps them.
 */
describe('payments: an eSIM issued for a deleted account', () => {
  const ns = new TestNamespace();
  let db: DataSource;

  beforeAll(async () => {
    db = await openDataSource({
      url: TEST_DATABASE_URL,
      schema: ns.schema('payments'),
      entities: [],
      migrations: [
        Purchases1732062000000,
        PaymentsOperatorQueue1734200000000,
        PaymentsReconciliation1734300000000,
        StripeSandboxMoved1737000000000,
        PurchaseCurrency1738000000000,
        PurchasePaymentMethod1739000000000,
        PurchaseRefunds1739100000000,
        PaymentsLateWrites1739500000000,
      ],
    });
  });
  afterAll(async () => {
    if (db?.isInitialized) await db.destroy();
    await ns.cleanup();
  });

  /** A purchase paid and then activated with its eSIM, as the issued eSIM's handler does. */
  const activate = async (userId: string) => {
    const [{ id }] = await db.query(
      `INSERT INTO esim_purchases (id, user_id, plan_type, amount_gb, price_usd, country, payment_intent_id, status)
       VALUES ($1, $2, '1GB', 1, 500, 'BR', $3, 'processing') RETURNING id`,
      [randomUUID(), userId, `pi_${randomUUID()}`],
    );
    await db.query(
      `UPDATE esim_purchases SET status = 'activated', iccid = $2, lpa_code = $3, msisdn = '+5511900000001', qr_code = 'data:image/png;base64,AAAA' WHERE id = $1`,
      [id, ICCID, LPA],
    );
    return (await db.query('SELECT status, iccid, lpa_code, msisdn, qr_code FROM esim_purchases WHERE id = $1', [id]))[0];
  };

  it("activates the deleted account's purchase without the eSIM's details", async () => {
    const [gone, other] = [randomUUID(), randomUUID()];
    await db.transaction((m) => DeletedAccounts.remember(m, gone));
    expect(await activate(gone)).toEqual({ status: 'activated', iccid: 'erased', lpa_code: 'erased', msisdn: null, qr_code: null });
    expect(await activate(other)).toEqual({
      status: 'activated',
      iccid: ICCID,
      lpa_code: LPA,
      msisdn: '+5511900000001',
      qr_code: 'data:image/png;base64,AAAA',
    });
  });
});
