import { randomBytes } from 'node:crypto';
import { extractCode, TestMailServer } from '@esim/testing';
import { HttpClient } from './http-client';

export interface SignedUpUser {
  id: string;
  email: string;
  password: string;
  name: string;
}

export const uniqueEmail = (label = 'user') => `${label}-${randomBytes(4).toString('hex')}@example.test`;

/** Signs up over HTTP exactly as the SPA does: register, read the code from the email, verify. */
export async function signUp(
  client: HttpClient,
  mail: TestMailServer,
  overrides: Partial<Omit<SignedUpUser, 'id'>> & { locale?: string; referralCode?: string; deviceId?: string } = {},
): Promise<SignedUpUser> {
  const email = overrides.email ?? uniqueEmail();
  const password = overrides.password ?? 'correct horse battery';
  const name = overrides.name ?? 'Ana Test';
  const before = mail.messages.length;
  const reg = await client.post('/api/register', { name, email, password, acceptTerms: true, acceptPrivacy: true, locale: overrides.locale ?? 'en' });
  if (reg.status !== 200) throw new Error(`register failed: ${reg.status} ${reg.text}`);
  const code = extractCode(await mail.waitForMail(email, { after: before }));
  // As the SPA sends them: a friend's code from the invitation link, and its device id header.
  const headers = overrides.deviceId ? { 'x-device-id': overrides.deviceId } : undefined;
  const verified = await client.post('/api/verify-email', { email, code, password, name, referralCode: overrides.referralCode }, { headers });
  if (verified.status !== 200) throw new Error(`verify failed: ${verified.status} ${verified.text}`);
  return { id: verified.json().user.id, email, password, name };
}
