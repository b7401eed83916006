import { randomUUID } from 'node:crypto';
import { OfferwallId, SIGNUP_BONUS_POINTS } from '@esim/contracts';
import { TestMailServer, waitFor } from '@esim/testing';
import { OFFERWALL_PROVIDERS } from '../../services/rewards/src/postbacks/providers';
import type { Credentials, EmulatedPostback } from '../../services/rewards/src/postbacks/providers/offerwall-provider';
import { sandboxCredentials } from '../../services/rewards/src/sandbox/sandbox-credentials';
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

/** Signs up, then waits for the sign-up bonus: from then on rewards knows the user. */
export async function signUpEarner(
  client: HttpClient,
  mail: TestMailServer,
  overrides: Parameters<typeof signUp>[2] = {},
): Promise<SignedUpUser> {
  const user = await signUp(client, mail, overrides);
  await waitFor(async () => (await client.get('/api/user')).json().points === SIGNUP_BONUS_POINTS, { what: 'the sign-up bonus' });
  return user;
}
