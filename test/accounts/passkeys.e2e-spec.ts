import { randomBytes } from 'node:crypto';
import { signUp } from '../support/accounts';
import { AccountsSystem, startAccountsSystem } from './accounts-system';

/**
 * Passkeys over HTTP against the real gateway and identity: what the ceremonies ask for, that an
 * answer needs a ceremony of its session, and that an account manages only its own passkeys.
 * Enrolment and sign-in with a real (virtual) authenticator: test/browser/passkeys.e2e-spec.ts.
 */
describe('passkeys', () => {
  let sys: AccountsSystem;

  beforeAll(async () => {
    sys = await startAccountsSystem();
  });
  afterAll(() => sys?.stop());

  /** A passkey row for `userId`, as a registration stores it (identity's own table). */
  async function storedPasskey(userId: string): Promise<string> {
    const id = randomBytes(16).toString('base64url');
    await sys.identityDb.query(`INSERT INTO passkeys (id, user_id, public_key, name) VALUES ($1, $2, $3, 'Phone')`, [id, userId, randomBytes(77)]);
    return id;
  }

  it('asks for a discoverable credential with user verification for the PUBLIC_URL host, excluding the passkeys the account has', async () => {
    const browser = sys.client();
    const user = await signUp(browser, sys.mail);
    const existing = await storedPasskey(user.id);
    const res = await browser.post('/api/user/passkeys/options');
    expect(res.status).toBe(200);
    const options = res.json();
    expect(options.rp).toEqual({ id: new URL(sys.url).hostname, name: 'Dados Grátis' });
    expect(options.authenticatorSelection).toMatchObject({ residentKey: 'required', userVerification: 'required' });
    expect(options.excludeCredentials).toEqual([expect.objectContaining({ id: existing, type: 'public-key' })]);
    expect(options.challenge).toMatch(/^[A-Za-z0-9_-]{22,}$/);

    const signIn = await sys.client().post('/api/login/passkey/options');
    expect(signIn.status).toBe(200);
    expect(signIn.json()).toMatchObject({ rpId: new URL(sys.url).hostname, userVerification: 'required' });
    expect(signIn.json().allowCredentials ?? []).toEqual([]);
  });

  it('refuses an answer with no ceremony started in the session, or a malformed one, and stores nothing', async () => {
    const browser = sys.client();
    const user = await signUp(browser, sys.mail);
    const answer = { id: 'AAAA', rawId: 'AAAA', type: 'public-key', response: { clientDataJSON: 'AAAA', attestationObject: 'AAAA' } };
    const none = await browser.post('/api/user/passkeys', { response: answer });
    expect(none.status).toBe(400);
    expect(none.json()).toMatchObject({ reason: 'passkey_refused' });

    await browser.post('/api/user/passkeys/options');
    const forged = await browser.post('/api/user/passkeys', { response: answer });
    expect(forged.status).toBe(400);
    expect(forged.json()).toMatchObject({ reason: 'passkey_refused' });

    const malformed = await browser.post('/api/user/passkeys', { response: { id: 'not base64url!' } });
    expect(malformed.status).toBe(400);
    expect(malformed.json()).toMatchObject({ code: 'validation' });
    const { rows } = await sys.identityDb.query('SELECT count(*)::int AS n FROM passkeys WHERE user_id = $1', [user.id]);
    expect(rows[0].n).toBe(0);
  });

  it("lists and removes only the account's own passkeys", async () => {
    const owner = sys.client();
    const ana = await signUp(owner, sys.mail);
    const id = await storedPasskey(ana.id);
    const stranger = sys.client();
    await signUp(stranger, sys.mail);

    expect((await stranger.get('/api/user/passkeys')).json()).toEqual({ passkeys: [] });
    const foreign = await stranger.delete(`/api/user/passkeys/${id}`);
    expect(foreign.status).toBe(404);
    expect(foreign.json()).toMatchObject({ reason: 'passkey_not_found' });

    expect((await owner.get('/api/user/passkeys')).json()).toEqual({
      passkeys: [{ id, name: 'Phone', createdAt: expect.any(String), lastUsedAt: null }],
    });
    expect((await owner.delete(`/api/user/passkeys/${id}`)).status).toBe(200);
    expect((await owner.get('/api/user/passkeys')).json()).toEqual({ passkeys: [] });
  });

  it('erases the passkeys with the account', async () => {
    const browser = sys.client();
    const user = await signUp(browser, sys.mail);
    await storedPasskey(user.id);
    expect((await browser.delete('/api/user/account')).status).toBe(200);
    const { rows } = await sys.identityDb.query('SELECT count(*)::int AS n FROM passkeys WHERE user_id = $1', [user.id]);
    expect(rows[0].n).toBe(0);
  });
});
