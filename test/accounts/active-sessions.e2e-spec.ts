import { signUp } from '../support/accounts';
import type { HttpClient } from '../support/http-client';
import { AccountsSystem, isSignedIn, login, startAccountsSystem } from './accounts-system';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const WINDOWS_CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

interface Listed {
  id: string;
  current: boolean;
  browser: string | null;
  os: string | null;
  device: string | null;
  signedInAt: string;
  lastSeenAt: string;
}

const list = async (client: HttpClient): Promise<Listed[]> => {
  const res = await client.get('/api/user/sessions');
  expect(res.status).toBe(200);
  return res.json().sessions;
};

/** The account's session list on /profile: what it shows, ending one session or all the others. */
describe('your sessions', () => {
  let sys: AccountsSystem;

  beforeAll(async () => {
    sys = await startAccountsSystem();
  });
  afterAll(() => sys?.stop());

  it('lists each signed-in session with its device and browser, and marks the one asking', async () => {
    const home = sys.client();
    const user = await signUp(home, sys.mail);
    const phone = sys.client();
    expect((await login(phone, user.email, user.password, { 'user-agent': IPHONE })).status).toBe(200);
    const office = sys.client();
    expect((await login(office, user.email, user.password, { 'user-agent': WINDOWS_CHROME })).status).toBe(200);

    const sessions = await list(phone);
    expect(sessions).toHaveLength(3);
    expect(sessions.filter((s) => s.current)).toHaveLength(1);
    const mine = sessions.find((s) => s.current)!;
    expect(mine).toMatchObject({ browser: 'Mobile Safari 17', os: 'iOS 17', device: 'Apple iPhone' });
    expect(sessions).toContainEqual(expect.objectContaining({ current: false, browser: 'Chrome 131', os: 'Windows 10' }));
    for (const s of sessions) {
      expect(s.id).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(Date.parse(s.lastSeenAt)).toBeGreaterThanOrEqual(Date.parse(s.signedInAt));
    }
    // Newest first.
    expect(sessions.map((s) => s.signedInAt)).toEqual([...sessions.map((s) => s.signedInAt)].sort().reverse());
    // The id is a hash, never the session id the cookie carries.
    const cookie = decodeURIComponent([...phone.cookies.values()][0]);
    for (const s of sessions) expect(cookie).not.toContain(s.id);
  });

  it('ends one other session, refuses to end the one asking, and answers 404 for another account’s session', async () => {
    const home = sys.client();
    const user = await signUp(home, sys.mail);
    const phone = sys.client();
    await login(phone, user.email, user.password, { 'user-agent': IPHONE });
    const phoneId = (await list(phone)).find((s) => s.current)!.id;
    const homeId = (await list(home)).find((s) => s.current)!.id;

    const self = await home.delete(`/api/user/sessions/${homeId}`);
    expect(self.status).toBe(409);
    expect(self.json()).toMatchObject({ code: 'conflict', reason: 'session_is_current' });

    const stranger = sys.client();
    await signUp(stranger, sys.mail);
    const foreign = await stranger.delete(`/api/user/sessions/${phoneId}`);
    expect(foreign.status).toBe(404);
    expect(foreign.json()).toMatchObject({ reason: 'session_not_found' });
    expect(await isSignedIn(phone)).toBe(true);

    expect((await home.delete('/api/user/sessions/not-a-session')).status).toBe(400);

    const ended = await home.delete(`/api/user/sessions/${phoneId}`);
    expect(ended.status).toBe(200);
    expect(ended.json()).toMatchObject({ ended: 1 });
    expect(await isSignedIn(phone)).toBe(false);
    expect(await isSignedIn(home)).toBe(true);
    expect((await list(home)).map((s) => s.id)).toEqual([homeId]);
    expect((await home.delete(`/api/user/sessions/${phoneId}`)).status).toBe(404);
  });

  it('ends every other session at once and keeps the one asking', async () => {
    const home = sys.client();
    const user = await signUp(home, sys.mail);
    const others = [sys.client(), sys.client()];
    for (const c of others) await login(c, user.email, user.password);
    expect(await list(home)).toHaveLength(3);

    const res = await home.delete('/api/user/sessions');
    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({ ended: 2 });
    for (const c of others) expect(await isSignedIn(c)).toBe(false);
    expect(await isSignedIn(home)).toBe(true);
    expect(await list(home)).toHaveLength(1);
  });

  it('answers 401 without a session', async () => {
    expect((await sys.client().get('/api/user/sessions')).status).toBe(401);
    expect((await sys.client().delete('/api/user/sessions')).status).toBe(401);
  });
});
