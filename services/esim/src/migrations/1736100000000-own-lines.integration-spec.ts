import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { openDataSource } from '@esim/platform';
import { TEST_DATABASE_URL, TestNamespace } from '@esim/testing';
import { DataGifts1732060900000 } from './1732060900000-data-gifts';
import { EsimRedemptions1732063000000 } from './1732063000000-redemptions';
import { EsimOperatorQueue1734200000000 } from './1734200000000-operator-queue';
import { EsimOwnLines1736100000000 } from './1736100000000-own-lines';

const OWNER_ICCID = '8900000000000000101';
const BOUGHT_ICCID = '8900000000000000102';
const LPA = 'LPA:1$smdp.example$OWNER-CODE';

/**
 * Migration 1736100000000 on a wallet written before it: a line that a top-up put into someone
 * else's wallet (with the owner's activation code) is removed, and that top-up forgets the code;
 * the owner's line, their own top-up and a bought line stay as they were.
 */
describe("top-ups never hand a line over, for data written before (migration 1736100000000)", () => {
  const ns = new TestNamespace();
  let db: DataSource;

  beforeAll(async () => {
    db = await openDataSource({
      url: TEST_DATABASE_URL,
      schema: ns.schema('esim'),
      entities: [],
      migrations: [DataGifts1732060900000, EsimRedemptions1732063000000, EsimOperatorQueue1734200000000],
    });
  });
  afterAll(async () => {
    if (db?.isInitialized) await db.destroy();
    await ns.cleanup();
  });

  /** A delivered provisioning (and its delivered gift row), as the code before the migration wrote it. */
  const delivered = async (userId: string, kind: 'new' | 'topup', iccid: string, lpaCode: string | null): Promise<string> => {
    const giftId = randomUUID();
    await db.query(
      `INSERT INTO data_gifts (id, user_id, amount_gb, plan_tier, iccid, status, delivered_at, source) VALUES ($1, $2, 1, '1GB', $3, 'delivered', now(), 'points')`,
      [giftId, userId, iccid],
    );
    const [{ id }] = await db.query(
      `INSERT INTO provisionings (redemption_id, user_id, source, kind, plan_tier, amount_gb, country, target_iccid, status, iccid, lpa_code, msisdn, delivered_gift_id, completed_at)
       VALUES ($1, $2, 'points', $3, '1GB', 1, $4, $5, 'succeeded', $6, $7, '+15550100', $8, now()) RETURNING id`,
      [randomUUID(), userId, kind, kind === 'new' ? 'US' : null, kind === 'topup' ? iccid : null, iccid, lpaCode, giftId],
    );
    return id;
  };
  const line = (userId: string, iccid: string, source: string) =>
    db.query(`INSERT INTO esim_lines (user_id, iccid, lpa_code, msisdn, plan_tier, source, total_gb) VALUES ($1, $2, $3, '+15550100', '1GB', $4, 1)`, [
      userId,
      iccid,
      LPA,
      source,
    ]);

  it("removes the lines top-ups created and forgets the codes they recorded; keeps the owners' and bought lines", async () => {
    const [victim, attacker, buyer] = [randomUUID(), randomUUID(), randomUUID()];
    const created = await delivered(victim, 'new', OWNER_ICCID, LPA);
    await line(victim, OWNER_ICCID, 'redeemed');
    const ownTopup = await delivered(victim, 'topup', OWNER_ICCID, LPA);
    const takeover = await delivered(attacker, 'topup', OWNER_ICCID, LPA);
    await line(attacker, OWNER_ICCID, 'redeemed');
    await line(buyer, BOUGHT_ICCID, 'bought');

    const runner = db.createQueryRunner();
    try {
      await new EsimOwnLines1736100000000().up(runner);
    } finally {
      await runner.release();
    }

    expect(await db.query('SELECT user_id, iccid, lpa_code FROM esim_lines ORDER BY iccid, user_id')).toEqual([
      { user_id: victim, iccid: OWNER_ICCID, lpa_code: LPA },
      { user_id: buyer, iccid: BOUGHT_ICCID, lpa_code: LPA },
    ]);
    const rows: Array<{ id: string; own_line: boolean; lpa_code: string | null; msisdn: string | null }> = await db.query(
      'SELECT id, own_line, lpa_code, msisdn FROM provisionings',
    );
    const byId = new Map(rows.map((r) => [r.id, { own_line: r.own_line, lpa_code: r.lpa_code, msisdn: r.msisdn }]));
    expect(byId.get(created)).toEqual({ own_line: true, lpa_code: LPA, msisdn: '+15550100' });
    expect(byId.get(ownTopup)).toEqual({ own_line: true, lpa_code: LPA, msisdn: '+15550100' });
    expect(byId.get(takeover)).toEqual({ own_line: false, lpa_code: null, msisdn: null });
  });
});
