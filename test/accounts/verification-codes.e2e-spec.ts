import { VerificationCodeIssued } from '@esim/contracts';
import { uniqueEmail } from '../support/accounts';
import { AccountsSystem, lastEvent, startAccountsSystem } from './accounts-system';

const DAILY_CAP = 7;
const PASSWORD = 'long enough password';
const INVALID = 'Invalid or expired verification code';

/** Security check 9: codes live 10 minutes, are single use, die after 5 wrong tries, are replaced by a resend, and wrong tries are capped per day. */
describe('verification codes', () => {
  let sys: AccountsSystem;

  beforeAll(async () => {
    sys = await startAccountsSystem({ env: { VERIFICATION_DAILY_FAILURE_CAP: String(DAILY_CAP) } });
  });
  afterAll(() => sys?.stop());

  const register = async (email: string) => {
    const res = await sys
      .client()
      .post('/api/register', { name: 'Vera', email, password: PASSWORD, acceptTerms: true, acceptPrivacy: true });
    expect(res.status).toBe(200);
    return (await lastEvent(sys, VerificationCodeIssued, email))!.code;
  };
  const resend = async (email: string) => {
    expect((await sys.client().post('/api/resend-verification', { email })).status).toBe(200);
    return (await lastEvent(sys, VerificationCodeIssued, email))!.code;
  };
  const verify = (email: string, code: string) => sys.client().post('/api/verify-email', { email, code, password: PASSWORD, name: 'Vera' });
  const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');
  const expectInvalid = async (email: string, code: string) => {
    const res = await verify(email, code);
    expect(res.status).toBe(400);
    expect(res.json().message).toBe(INVALID);
  };

  it('stores only a keyed hash of the code', async () => {
    const email = uniqueEmail('hashed');
    const code = await register(email);
    const { rows } = await sys.identityDb.query('SELECT code_hash FROM email_verification_codes WHERE email = $1', [email]);
    expect(rows).toHaveLength(1);
    expect(rows[0].code_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0].code_hash).not.toContain(code);
  });

  it('is single use', async () => {
    const email = uniqueEmail('once');
    const code = await register(email);
    expect((await verify(email, code)).status).toBe(200);
    const { rows } = await sys.identityDb.query('SELECT used FROM email_verification_codes WHERE email = $1', [email]);
    expect(rows).toEqual([{ used: true }]);
    await expectInvalid(email, code);
    expect((await sys.identityDb.query('SELECT 1 FROM users WHERE email = $1', [email])).rowCount).toBe(1);
  });

  it('dies after 5 wrong tries, even for the right code', async () => {
    const email = uniqueEmail('tries');
    const code = await register(email);
    for (let i = 0; i < 5; i++) await expectInvalid(email, wrongCode(code));
    await expectInvalid(email, code);
  });

  it('is refused once expired', async () => {
    const email = uniqueEmail('expired');
    const code = await register(email);
    const { rows } = await sys.identityDb.query('SELECT created_at, expires_at FROM email_verification_codes WHERE email = $1', [email]);
    expect(rows[0].expires_at.getTime() - rows[0].created_at.getTime()).toBeLessThanOrEqual(10 * 60_000 + 1000);
    await sys.identityDb.query("UPDATE email_verification_codes SET expires_at = now() - interval '1 second' WHERE email = $1", [email]);
    await expectInvalid(email, code);
  });

  it('is replaced by a resend: the old code stops working, the new one works', async () => {
    const email = uniqueEmail('resend');
    const first = await register(email);
    const second = await resend(email);
    expect(second).not.toBe(first);
    await expectInvalid(email, first);
    expect((await verify(email, second)).status).toBe(200);
  });

  it('stops accepting codes for an email that collected the daily cap of wrong tries', async () => {
    const email = uniqueEmail('capped');
    const first = await register(email);
    for (let i = 0; i < 5; i++) await expectInvalid(email, wrongCode(first));
    const second = await resend(email);
    for (let i = 5; i < DAILY_CAP; i++) await expectInvalid(email, wrongCode(second));
    const res = await verify(email, second);
    expect(res.status).toBe(429);
    expect(res.json().message).toBe('Too many attempts. Please try again later.');
    expect((await sys.identityDb.query('SELECT 1 FROM users WHERE email = $1', [email])).rowCount).toBe(0);
  });
});
