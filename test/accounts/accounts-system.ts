import { Client } from 'pg';
import type { EventDefinition, EventPayload } from '@esim/contracts';
import { TEST_DATABASE_URL, waitFor } from '@esim/testing';
import type { HttpClient, HttpResponse } from '../support/http-client';
import { startSystem, System, SystemOptions } from '../support/system';

/** Per-IP buckets wide open: every request of a test file comes from 127.0.0.1. Files about limits narrow them. */
const ROOMY_IP_LIMITS = {
  RATE_LIMIT_LOGIN_IP: '1000/900',
  RATE_LIMIT_SIGNUP_IP: '1000/3600',
  RATE_LIMIT_VERIFY_IP: '1000/900',
  RATE_LIMIT_RESEND_IP: '1000/3600',
  RATE_LIMIT_FORGOT_IP: '1000/3600',
};

/** The running system plus a connection to identity's own schema, to look at what it stores. */
export interface AccountsSystem extends System {
  identityDb: Client;
}

export async function startAccountsSystem(opts: SystemOptions = {}): Promise<AccountsSystem> {
  const sys = await startSystem({
    ...opts,
    services: ['identity', 'rewards', 'esim', 'notifications'],
    gatewayEnv: { ...ROOMY_IP_LIMITS, ...opts.gatewayEnv },
  });
  const identityDb = new Client({ connectionString: TEST_DATABASE_URL, options: `-c search_path=${sys.ns.schema('identity')}` });
  await identityDb.connect();
  return {
    ...sys,
    identityDb,
    async stop() {
      await identityDb.end();
      await sys.stop();
    },
  };
}

/**
 * The newest event of this type that identity wrote for `email`. Identity writes it in the same
 * transaction as the change, so it is there as soon as the HTTP answer is.
 */
export async function lastEvent<D extends EventDefinition>(
  sys: AccountsSystem,
  def: D,
  email: string,
): Promise<EventPayload<D> | undefined> {
  const { rows } = await sys.identityDb.query<{ envelope: { payload: EventPayload<D> & { email: string } } }>(
    `SELECT envelope FROM outbox_events WHERE routing_key = $1 AND envelope->'payload'->>'email' = $2 ORDER BY seq DESC LIMIT 1`,
    [def.routingKey, email.toLowerCase()],
  );
  return rows[0]?.envelope.payload;
}

/** How many events of this type identity wrote for `email` so far. */
export async function eventCount(sys: AccountsSystem, def: EventDefinition, email: string): Promise<number> {
  const { rows } = await sys.identityDb.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM outbox_events WHERE routing_key = $1 AND envelope->'payload'->>'email' = $2`,
    [def.routingKey, email.toLowerCase()],
  );
  return rows[0].n;
}

/**
 * Waits for an event of this type for `email` beyond the `before` that existed: for work identity
 * does right after its answer (a reset link is issued after the forgot-password answer).
 */
export async function nextEvent<D extends EventDefinition>(
  sys: AccountsSystem,
  def: D,
  email: string,
  before: number,
): Promise<EventPayload<D>> {
  await waitFor(async () => (await eventCount(sys, def, email)) > before, { what: `${def.routingKey} for ${email}` });
  return (await lastEvent(sys, def, email))!;
}

export function login(client: HttpClient, email: string, password: string, headers: Record<string, string> = {}): Promise<HttpResponse> {
  return client.post('/api/login', { username: email, password }, { headers });
}

/** A second browser holding exactly these cookies (to replay an old session id). */
export function clientWithCookies(sys: System, cookies: Map<string, string>): HttpClient {
  const client = sys.client();
  for (const [name, value] of cookies) client.cookies.set(name, value);
  return client;
}

export async function isSignedIn(client: HttpClient): Promise<boolean> {
  const res = await client.get('/api/user');
  if (res.status !== 200 && res.status !== 401) throw new Error(`GET /api/user answered ${res.status}: ${res.text}`);
  return res.status === 200;
}
