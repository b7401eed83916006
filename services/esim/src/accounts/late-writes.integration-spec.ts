import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { DeletedAccounts } from '@esim/platform';
import { TestNamespace } from '@esim/testing';
import { openEsimSchema } from '../testing/esim-schema';

const ICCID = '8999000000000077777';
const LPA = 'LPA:1$late.example$LATE-CODE';

/**
 * Late events after a deletion (docs/accounts.md, "Late events") on esim's schema: once the
 * account is remembered as deleted, a delivery that completes, a gift delivered with it, a line, an
 * auto top-up rule and an outbox event about the account keep none of its eSIM details, whatever
 * writes them; another account's rows are written as they come.
 */
describe('esim: writes for a deleted account', () => {
  const ns = new TestNamespace();
  let db: DataSource;

  beforeAll(async () => {
    db = await openEsimSchema(ns);
  });
  afterAll(async () => {
    if (db?.isInitialized) await db.destroy();
    await ns.cleanup();
  });

  /** A delivery under way for `userId`, completed afterwards with a new line, as the provisioning worker does. */
  const deliver = async (userId: string) => {
    const gift = randomUUID();
    await db.query(
      `INSERT INTO data_gifts (id, user_id, amount_gb, plan_tier, status, source) VALUES ($1, $2, 1, '1GB', 'granted', 'points')`,
      [gift, userId],
    );
    const [{ id }] = await db.query(
      `INSERT INTO provisionings (redemption_id, user_id, source, kind, plan_tier, amount_gb, country, status) VALUES ($1, $2, 'points', 'new', '1GB', 1, 'BR', 'in_progress') RETURNING id`,
      [randomUUID(), userId],
    );
    await db.query(`UPDATE data_gifts SET status = 'delivered', iccid = $2, delivered_at = now() WHERE id = $1`, [gift, ICCID]);
    await db.query(
      `UPDATE provisionings SET status = 'succeeded', iccid = $2, lpa_code = $3, msisdn = '+5511900000000', delivered_gift_id = $4, completed_at = now() WHERE id = $1`,
      [id, ICCID, LPA, gift],
    );
    await db.query(
      `INSERT INTO esim_lines (user_id, iccid, lpa_code, msisdn, plan_tier, source, total_gb) VALUES ($1, $2, $3, '+5511900000000', '1GB', 'redeemed', 1)`,
      [userId, ICCID, LPA],
    );
    await db.query(`INSERT INTO auto_topup_rules (user_id, iccid, enabled, below_mb, monthly_cap) VALUES ($1, $2, true, 100, 1)`, [
      userId,
      ICCID,
    ]);
    const envelope = {
      id: randomUUID(),
      type: 'esim.provisioning-succeeded.v1',
      payload: { userId, iccid: ICCID, lpaCode: LPA, msisdn: '+5511900000000', amountGB: 1 },
    };
    await db.query(`INSERT INTO outbox_events (id, routing_key, envelope) VALUES ($1, $2, $3::jsonb)`, [
      envelope.id,
      envelope.type,
      JSON.stringify(envelope),
    ]);
    return { gift, delivery: id, event: envelope.id };
  };
  const stored = async (userId: string, ids: { gift: string; delivery: string; event: string }) => ({
    gift: (await db.query('SELECT iccid FROM data_gifts WHERE id = $1', [ids.gift]))[0],
    delivery: (await db.query('SELECT iccid, lpa_code, msisdn FROM provisionings WHERE id = $1', [ids.delivery]))[0],
    lines: (await db.query('SELECT count(*)::int AS n FROM esim_lines WHERE user_id = $1', [userId]))[0].n,
    rules: (await db.query('SELECT count(*)::int AS n FROM auto_topup_rules WHERE user_id = $1', [userId]))[0].n,
    event: (await db.query(`SELECT envelope->'payload' AS payload FROM outbox_events WHERE id = $1`, [ids.event]))[0].payload,
  });

  it("keeps a deleted account's eSIM details out of every write, and leaves other accounts' alone", async () => {
    const [gone, other] = [randomUUID(), randomUUID()];
    await db.transaction((m) => DeletedAccounts.remember(m, gone));

    expect(await stored(gone, await deliver(gone))).toEqual({
      gift: { iccid: 'erased' },
      delivery: { iccid: 'erased', lpa_code: null, msisdn: null },
      lines: 0,
      rules: 0,
      event: { userId: gone, iccid: 'erased', lpaCode: 'erased', msisdn: 'erased', amountGB: 1 },
    });
    expect(await stored(other, await deliver(other))).toEqual({
      gift: { iccid: ICCID },
      delivery: { iccid: ICCID, lpa_code: LPA, msisdn: '+5511900000000' },
      lines: 1,
      rules: 1,
      event: { userId: other, iccid: ICCID, lpaCode: LPA, msisdn: '+5511900000000', amountGB: 1 },
    });
  });
});
