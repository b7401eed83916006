import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { INestApplication } from '@nestjs/common';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { openDataSource } from '@esim/platform';
import { TEST_DATABASE_URL, TestNamespace } from '@esim/testing';
import { startRewards } from '../../services/rewards/src/app';
import { Ledger1732061000000 } from '../../services/rewards/src/migrations/1732061000000-ledger';
import { Earning1732061000001 } from '../../services/rewards/src/migrations/1732061000001-earning';
import { handOverWebhookTransactions } from '../../services/rewards/src/webhook-transactions-handover/webhook-transactions-handover.admin-step';
import { startWebhooks } from '../../services/webhooks/src/app';
import { OFFERWALL_PROVIDERS } from '../../services/webhooks/src/postbacks/providers';
import { sandboxCredentials } from '../../services/webhooks/src/offerwalls/sandbox-credentials';
import { postbackFor } from './earning-support';

/**
 * An installation from before the ingestion service: rewards held webhook_transactions. Each
 * service's migrations write its own schema only (per-service roles, docs/operations.md): rewards
 * keeps the records aside in its schema, the administrator's roles step moves them, and whichever
 * of that step and the webhooks service's first migration comes second imports them. In the end the
 * delivery records and the users rewards knew are with the webhooks service, and rewards keeps none.
 */
describe('handing webhook_transactions over from rewards to the webhooks service', () => {
  const apps: INestApplication[] = [];
  const namespaces: TestNamespace[] = [];
  afterAll(async () => {
    for (const app of apps) await app.close();
    for (const ns of namespaces) await ns.cleanup();
  });

  /** A rewards schema as the earlier release left it, with two users (one deleted) and three deliveries. */
  async function oldInstallation(ns: TestNamespace) {
    const member = randomUUID();
    const deleted = randomUUID();
    const db = await openDataSource({ url: TEST_DATABASE_URL, schema: ns.schema('rewards'), entities: [], migrations: [Ledger1732061000000, Earning1732061000001] });
    await db.query(`INSERT INTO ledger_accounts (user_id) VALUES ($1)`, [member]);
    await db.query(`INSERT INTO ledger_accounts (user_id, closed_at) VALUES ($1, now())`, [deleted]);
    await db.query(
      `INSERT INTO webhook_transactions (provider, transaction_id, user_id, status, amount_mb, raw_payload, source_ip) VALUES
         ('cpx', 'old-1', $1, 'credited', 120, '{"url": "https://app.example/webhooks/offerwalls/cpx?trans_id=old-1"}', '198.51.100.1'),
         ('cpx', 'old-1', $1, 'duplicate', 120, '{}', '198.51.100.1'),
         ('cpx', 'old-1', $1, 'reversed', 120, '{}', '198.51.100.1'),
         ('bitlabs', NULL, NULL, 'rejected_signature', NULL, '{}', '203.0.113.9')`,
      [member],
    );
    await db.destroy();
    return { member, deleted };
  }

  const boot = async (ns: TestNamespace, service: 'rewards' | 'webhooks') => {
    const app =
      service === 'rewards'
        ? await startRewards(ns.env('rewards'))
        : await startWebhooks(ns.env('webhooks', { PUBLIC_URL: 'https://app.example' }));
    apps.push(app);
    return app;
  };
  /** The roles step's hand-over (scripts/db-roles.mjs), with the administrator's login. */
  const handOver = async (ns: TestNamespace) => {
    const admin = new Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    try {
      return await handOverWebhookTransactions(admin, { rewards: ns.schema('rewards'), webhooks: ns.schema('webhooks') });
    } finally {
      await admin.end();
    }
  };
  const tables = async (db: DataSource, schema: string) =>
    (await db.query(`SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY 1`, [schema])).map(
      (r: { table_name: string }) => r.table_name,
    );

  async function expectHandedOver(ns: TestNamespace, webhooks: INestApplication, users: { member: string; deleted: string }) {
    const db = webhooks.get(DataSource);
    expect(await tables(db, ns.schema('rewards'))).not.toEqual(expect.arrayContaining(['webhook_transactions']));
    expect(await tables(db, ns.schema('rewards'))).not.toEqual(expect.arrayContaining(['handover_webhook_transactions']));
    expect(await tables(db, ns.schema('rewards'))).not.toEqual(expect.arrayContaining(['handover_users']));
    expect(await tables(db, ns.schema('webhooks'))).not.toEqual(expect.arrayContaining(['rewards_webhook_transactions']));
    expect(await tables(db, ns.schema('webhooks'))).not.toEqual(expect.arrayContaining(['rewards_users']));
    expect(await db.query(`SELECT transaction_id, action, status FROM webhook_transactions ORDER BY created_at, status`)).toEqual(
      expect.arrayContaining([
        { transaction_id: 'old-1', action: 'credit', status: 'accepted' },
        { transaction_id: 'old-1', action: null, status: 'duplicate' },
        { transaction_id: 'old-1', action: 'reverse', status: 'accepted' },
        { transaction_id: null, action: null, status: 'rejected_signature' },
      ]),
    );
    // The users rewards knew are known here: a postback for the member is accepted, the deleted one's is not.
    const { port } = webhooks.getHttpServer().address() as AddressInfo;
    const call = async (userId: string) => {
      const url = OFFERWALL_PROVIDERS.cpx.sign(sandboxCredentials('cpx'), postbackFor(userId), 'https://app.example/webhooks/offerwalls/cpx');
      const res = await fetch(`http://127.0.0.1:${port}${url.slice('https://app.example'.length)}`);
      return [res.status, await res.text()];
    };
    expect(await call(users.member)).toEqual([200, '1']);
    expect(await call(users.deleted)).toEqual([404, 'rejected_unknown_user']);
    // An old credit can be reversed only once: its accepted reversal came along.
    const reversal = OFFERWALL_PROVIDERS.cpx.sign(
      sandboxCredentials('cpx'),
      { ...postbackFor(users.member), transactionId: 'old-1', action: 'reverse' },
      'https://app.example/webhooks/offerwalls/cpx',
    );
    await fetch(`http://127.0.0.1:${port}${reversal.slice('https://app.example'.length)}`);
    expect(await db.query(`SELECT status FROM webhook_transactions WHERE transaction_id = 'old-1' AND action IS NULL ORDER BY created_at`)).toEqual([
      { status: 'duplicate' },
      { status: 'duplicate' },
    ]);
  }

  it('rewards migrates first: its migration writes only its own schema; the records wait in the webhooks schema until that service imports them', async () => {
    const ns = new TestNamespace();
    namespaces.push(ns);
    const users = await oldInstallation(ns);
    const rewards = await boot(ns, 'rewards');
    const db = rewards.get(DataSource);
    expect(await tables(db, ns.schema('webhooks'))).toEqual([]);
    expect(await tables(db, ns.schema('rewards'))).toEqual(expect.arrayContaining(['handover_users', 'handover_webhook_transactions']));
    expect(await handOver(ns)).toBe(true);
    expect(await tables(db, ns.schema('webhooks'))).toEqual(['rewards_users', 'rewards_webhook_transactions']);
    await expectHandedOver(ns, await boot(ns, 'webhooks'), users);
    // Run again on every deploy: nothing left to move.
    expect(await handOver(ns)).toBe(false);
  });

  it('the webhooks service migrates first: the roles step hands the records straight to it', async () => {
    const ns = new TestNamespace();
    namespaces.push(ns);
    const users = await oldInstallation(ns);
    const webhooks = await boot(ns, 'webhooks');
    await boot(ns, 'rewards');
    expect(await handOver(ns)).toBe(true);
    await expectHandedOver(ns, webhooks, users);
  });

  it('a fresh installation hands nothing over and creates nothing in the webhooks schema', async () => {
    const ns = new TestNamespace();
    namespaces.push(ns);
    const rewards = await boot(ns, 'rewards');
    expect(await handOver(ns)).toBe(false);
    expect(await tables(rewards.get(DataSource), ns.schema('webhooks'))).toEqual([]);
    expect(await tables(rewards.get(DataSource), ns.schema('rewards'))).not.toEqual(expect.arrayContaining(['webhook_transactions', 'handover_webhook_transactions']));
  });
});
