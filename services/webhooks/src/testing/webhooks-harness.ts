import type { AddressInfo } from 'node:net';
import { AcceptedPostback, EventEnvelope, EventPayload, OfferwallId, OfferwallPostbacksAccepted } from '@esim/contracts';
import type { Env } from '@esim/platform';
import { ServiceUnderTest, startServiceUnderTest } from '@esim/testing';
import { startWebhooks } from '../app';
import { OFFERWALL_PROVIDERS } from '../postbacks/providers';
import { Credentials, EmulatedPostback } from '../postbacks/providers/offerwall-provider';
import { sandboxCredentials } from '../offerwalls/sandbox-credentials';

/** The public origin providers are told to call (PUBLIC_URL): what BitLabs signs. */
export const TEST_PUBLIC_URL = 'https://app.example';

export interface Answer {
  status: number;
  body: string;
}

/** The real ingestion service in its own namespace, called over HTTP as providers call it. */
export interface WebhooksUnderTest extends ServiceUnderTest {
  /** Where the service listens (its own port). */
  origin: string;
  /** A user identity announced (UserRegistered), once the service knows it. */
  registerUser(): Promise<string>;
  /**
   * Calls a postback URL signed under TEST_PUBLIC_URL, as the provider would reach it through the
   * gateway: the same request target, `from` as the address the gateway resolved.
   */
  call(url: string, opts?: { from?: string; method?: 'GET' | 'POST'; form?: string; json?: string }): Promise<Answer>;
  /** The postbacks of one provider transaction that OfferwallPostbacksAccepted events in the outbox announce, with their event's acceptedAt. */
  accepted(provider: OfferwallId, creditTransactionId: string): Promise<Array<AcceptedPostback & { acceptedAt: string }>>;
}

export async function startWebhooksUnderTest(env: Env = {}): Promise<WebhooksUnderTest> {
  const base = await startServiceUnderTest('webhooks', startWebhooks, () => ({ PUBLIC_URL: TEST_PUBLIC_URL, ...env }));
  const { port } = base.app.getHttpServer().address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;

  return {
    ...base,
    origin,
    async registerUser() {
      const { userId, envelope } = await base.announceUser();
      await base.applied(envelope);
      return userId;
    },
    async call(url, opts = {}) {
      if (!url.startsWith(TEST_PUBLIC_URL)) throw new Error(`${url} is not under ${TEST_PUBLIC_URL}`);
      const headers: Record<string, string> = { 'user-agent': 'provider-test', 'x-forwarded-for': opts.from ?? '127.0.0.1' };
      if (opts.form !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
      if (opts.json !== undefined) headers['content-type'] = 'application/json';
      const res = await fetch(`${origin}${url.slice(TEST_PUBLIC_URL.length)}`, {
        method: opts.method ?? (opts.form !== undefined || opts.json !== undefined ? 'POST' : 'GET'),
        headers,
        body: opts.form ?? opts.json,
      });
      return { status: res.status, body: await res.text() };
    },
    async accepted(provider, creditTransactionId) {
      const rows: Array<{ envelope: EventEnvelope<EventPayload<typeof OfferwallPostbacksAccepted>> }> = await base.db.query(
        `SELECT envelope FROM outbox_events WHERE routing_key = $1 AND envelope->'payload'->'postbacks' @> $2::jsonb ORDER BY seq`,
        [OfferwallPostbacksAccepted.routingKey, JSON.stringify([{ provider, creditTransactionId }])],
      );
      return rows.flatMap(({ envelope: { payload } }) =>
        payload.postbacks
          .filter((p) => p.provider === provider && p.creditTransactionId === creditTransactionId)
          .map((p) => ({ ...p, acceptedAt: payload.acceptedAt })),
      );
    },
  };
}

/** The postback URL a sandbox wall (or, with `creds`, a live one) signs for `postback`. */
export function signedPostbackUrl(provider: OfferwallId, postback: EmulatedPostback, creds: Partial<Credentials> = {}): string {
  return OFFERWALL_PROVIDERS[provider].sign(
    { ...sandboxCredentials(provider), ...creds },
    postback,
    `${TEST_PUBLIC_URL}/webhooks/offerwalls/${provider}`,
  );
}
