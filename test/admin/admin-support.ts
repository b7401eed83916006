import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import type { Env } from '@esim/platform';
import { TEST_DATABASE_URL } from '@esim/testing';
import { FAST_PROVISIONING } from '../redemption/redemption-support';
import { startSystem, System } from '../support/system';

/** The whole product behind the admin console, with quick sweeps and a quick points order. */
export function startAdminSystem(adminEmail: string, opts: { env?: Env; gatewayEnv?: Env; withPayments?: boolean } = {}): Promise<System> {
  return startSystem({
    services: ['identity', 'rewards', 'esim', 'notifications', ...(opts.withPayments ? (['payments'] as const) : [])],
    env: { ...FAST_PROVISIONING, ADMIN_EMAILS: adminEmail, ADMIN_POINTS_REFRESH_MS: '200', ...opts.env },
    gatewayEnv: { REDEEM_WAIT_MS: '30000', ...opts.gatewayEnv },
  });
}

/** A query straight on the test database (a service's schema is `sys.ns.schema(service)`). */
export async function sql<T = Record<string, unknown>>(query: string, params: unknown[] = []): Promise<T[]> {
  const pg = new Client({ connectionString: TEST_DATABASE_URL });
  await pg.connect();
  try {
    return (await pg.query(query, params)).rows as T[];
  } finally {
    await pg.end();
  }
}

/**
 * Seeds `count` live accounts straight into identity's table (signing thousands up over HTTP would
 * take minutes): enough to page and export. Names are `<label> <n>`; emails unique.
 */
export async function seedUsers(sys: System, count: number, label = `Seed${randomBytes(3).toString('hex')}`): Promise<string> {
  await sql(
    `INSERT INTO "${sys.ns.schema('identity')}".users (email, password_hash, name, email_verified, locale, settings, created_at)
     SELECT lower($1) || '-' || g || '@example.test', 'seeded', $1 || ' ' || g, true, 'en', '{}'::jsonb, now() - interval '1 day' + g * interval '1 millisecond'
       FROM generate_series(1, $2::int) AS g`,
    [label, count],
  );
  return label;
}

/** Lines of a CSV body (CRLF), without the byte order mark. */
export function csvLines(text: string): string[] {
  return text.replace(/^\uFEFF/, '').split('\r\n').filter((line, i, all) => line !== '' || i < all.length - 1);
}

/** The cells of one CSV line (RFC 4180 quoting). */
export function csvCells(line: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quoted && ch === '"' && line[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (ch === '"') {
      quoted = !quoted;
    } else if (ch === ',' && !quoted) {
      cells.push(cell);
      cell = '';
    } else {
      cell += ch;
    }
  }
  cells.push(cell);
  return cells;
}
