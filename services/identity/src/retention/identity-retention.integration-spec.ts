import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { openDataSource, RetentionSweeper } from '@esim/platform';
import { retentionReplica, TEST_DATABASE_URL, TestNamespace, touchedIn } from '@esim/testing';
import type { IdentityConfig } from '../config';
import { IDENTITY_MIGRATIONS } from '../persistence';
import { identityRetention } from './identity-retention';

/**
 * Identity's retention (docs/accounts.md, "Retention") on its schema, from two replicas at once:
 * the networks and devices an account was last seen on more than ANALYTICS_ANONYMISE_AFTER_YEARS
 * ago are gone, once; those seen since stay.
 */
describe('identity retention: fraud signals anonymised', () => {
  const ns = new TestNamespace();
  let db: DataSource;

  beforeAll(async () => {
    db = await openDataSource({ url: TEST_DATABASE_URL, schema: ns.schema('identity'), entities: [], migrations: IDENTITY_MIGRATIONS });
  });
  afterAll(async () => {
    if (db?.isInitialized) await db.destroy();
    await ns.cleanup();
  });

  it('deletes the networks and devices unseen for 2 years, once across two replicas', async () => {
    const [{ id: user }] = await db.query(
      `INSERT INTO users (email, password_hash, name, settings) VALUES ($1, 'x', 'Someone', '{}'::jsonb) RETURNING id`,
      [`${randomUUID()}@example.com`],
    );
    const [oldDevice, recentDevice] = [randomUUID(), randomUUID()];
    await db.query(
      `INSERT INTO user_devices (user_id, device_id, first_seen_at, last_seen_at) VALUES
         ($1, $2, now() - interval '3 years', now() - interval '25 months'), ($1, $3, now() - interval '3 years', now() - interval '23 months')`,
      [user, oldDevice, recentDevice],
    );
    await db.query(
      `INSERT INTO user_networks (user_id, network, first_seen_at, last_seen_at) VALUES
         ($1, '198.51.100.7', now() - interval '3 years', now() - interval '25 months'), ($1, '2001:db8:1:2::/64', now() - interval '3 years', now() - interval '1 day')`,
      [user],
    );

    const jobs = identityRetention({ ANALYTICS_ANONYMISE_AFTER_YEARS: 2 } as IdentityConfig);
    const schema = ns.schema('identity');
    const own = new RetentionSweeper(db, schema, jobs, 3_600_000);
    const replica = await retentionReplica(schema, jobs);
    const rounds = await Promise.all([own.sweep(), replica.sweeper.sweep()]).finally(() => replica.close());
    expect({ networks: touchedIn(rounds, 'sign-in-networks'), devices: touchedIn(rounds, 'devices') }).toEqual({ networks: 1, devices: 1 });

    expect(await db.query('SELECT device_id FROM user_devices WHERE user_id = $1', [user])).toEqual([{ device_id: recentDevice }]);
    expect(await db.query('SELECT network FROM user_networks WHERE user_id = $1', [user])).toEqual([{ network: '2001:db8:1:2::/64' }]);
    expect(await own.sweep()).toEqual({ 'sign-in-networks': 0, devices: 0 });
  });
});
