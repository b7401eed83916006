import { randomUUID } from 'node:crypto';
import { OfferwallId, OfferwallPostbacksAccepted, SIGNUP_BONUS_POINTS } from '@esim/contracts';
import { TestMailServer, waitFor } from '@esim/testing';
import { DataSource } from 'typeorm';
import { OFFERWALL_PROVIDERS } from '../../services/webhooks/src/postbacks/providers';
import type { Credentials, EmulatedPostback } from '../../services/webhooks/src/postbacks/providers/offerwall-provider';
import { sandboxCredentials } from '../../services/webhooks/src/offerwalls/sandbox-credentials';
import { viewSettled } from '../live/live-support';
import { signUp, SignedUpUser } from '../support/accounts';
import type { HttpClient } from '../support/http-client';
import type { System } from '../support/system';

/** A postback for `userId`, with a fresh provider transaction id. */
export function postbackFor(userId: string, points = 120, action: EmulatedPostback['action'] = 'credit'): EmulatedPostback {
  return {
    userId,
    transactionId: `tx-${randomUUID()}`,
    action,
    offer: { id: '901', name: 'Survey (5 questions)', category: 'survey', points },
    userIp: '198.51.100.4',
  };
}

/**
 * The URL the provider calls, signed as it documents (the same signing code the verifier and the
 * sandbox use), with the sandbox credentials unless `creds` overrides some.
 */
export function signedPostbackUrl(
  sys: System,
  provider: OfferwallId,
  postback: EmulatedPostback,
  creds: Partial<Credentials> = {},
): string {
  return OFFERWALL_PROVIDERS[provider].sign(
    { ...sandboxCredentials(provider), ...creds },
    postback,
    `${sys.url}/webhooks/offerwalls/${provider}`,
  );
}

export interface PlainAnswer {
  status: number;
  body: string;
  contentType: string | null;
}

/** Calls a postback URL the way a provider's server does: no cookies, no browser. */
export async function callPostback(url: string, init: RequestInit = {}): Promise<PlainAnswer> {
  const res = await fetch(url, init);
  return { status: res.status, body: await res.text(), contentType: res.headers.get('content-type') };
}

/**
 * Signs up, then waits for the sign-up bonus (from then on rewards knows the user) and, when the
 * system runs the ingestion service, for that service to know the user too: each applies
 * identity's UserRegistered on its own.
 */
export async function signUpEarner(
  client: HttpClient,
  mail: TestMailServer,
  overrides: Parameters<typeof signUp>[2] = {},
  sys?: System,
): Promise<SignedUpUser> {
  const user = await signUp(client, mail, overrides);
  await waitFor(async () => (await client.get('/api/user')).json().points === SIGNUP_BONUS_POINTS, { what: 'the sign-up bonus' });
  const webhooks = sys?.apps.webhooks?.get(DataSource);
  if (webhooks) {
    await waitFor(async () => (await webhooks.query('SELECT 1 FROM registered_users WHERE user_id = $1', [user.id])).length === 1, {
      what: 'the ingestion service to know the user',
    });
  }
  return user;
}

/**
 * Waits until rewards has applied every postback the ingestion service accepted so far (each
 * accepted event is in rewards' inbox): crediting follows the provider's answer, it does not
 * precede it; then until the gateway's user view has the balances rewards announced. Balances
 * read after this are final.
 */
export async function earningSettled(sys: System, timeoutMs = 20_000): Promise<void> {
  const webhooks = sys.apps.webhooks!.get(DataSource);
  const rewards = sys.apps.rewards!.get(DataSource);
  await waitFor(
    async () => {
      const accepted: Array<{ id: string }> = await webhooks.query('SELECT id FROM outbox_events WHERE routing_key = $1', [
        OfferwallPostbacksAccepted.routingKey,
      ]);
      const [{ applied }] = await rewards.query('SELECT count(*)::int AS applied FROM inbox_events WHERE event_id = ANY($1::uuid[])', [
        accepted.map((r) => r.id),
      ]);
      return applied === accepted.length;
    },
    { what: 'rewards to apply every accepted postback', timeoutMs, intervalMs: 25 },
  );
  await viewSettled(sys);
}
