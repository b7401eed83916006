import { OFFERWALL_IDS, SANDBOX_SIGNED_IN_USER_HEADER, SIGNUP_BONUS_POINTS } from '@esim/contracts';
import type { SignedUpUser } from '../support/accounts';
import { HttpClient } from '../support/http-client';
import { startSystem, System } from '../support/system';
import { earningSettled, signUpEarner } from './earning-support';

/**
 * No offer-wall credentials: every wall is the local emulator. Clicking Complete makes the
 * emulator's server send a signed postback to the ingestion service; the browser never credits.
 */
describe('sandbox offer walls', () => {
  let sys: System;
  let client: HttpClient;
  let user: SignedUpUser;
  const wallOf = async (c: HttpClient, id: string) =>
    ((await c.get('/api/offerwalls')).json().walls as Array<{ id: string; uid: string; embed: { url: string } }>).find((w) => w.id === id)!;
  const form = (c: HttpClient, path: string, fields: Record<string, string>) =>
    c.request('POST', path, undefined, {
      body: new URLSearchParams(fields).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
  const points = async () => {
    await earningSettled(sys);
    return (await client.get('/api/user')).json().points as number;
  };

  beforeAll(async () => {
    sys = await startSystem({ services: ['identity', 'rewards', 'esim', 'notifications', 'webhooks'] });
    client = sys.client();
    user = await signUpEarner(client, sys.mail, {}, sys);
  });
  afterAll(() => sys?.stop());

  it('lists the five walls as sandbox iframes, and RapidoReach’s uid for the signed-in user', async () => {
    const res = await client.get('/api/offerwalls');
    expect(res.status).toBe(200);
    const { walls } = res.json();
    expect(walls.map((w: { id: string }) => w.id)).toEqual([...OFFERWALL_IDS]);
    for (const w of walls)
      expect(w).toMatchObject({
        sandbox: true,
        embed: { kind: 'iframe', url: expect.stringMatching(`^/sandbox/offerwalls/${w.id}\\?uid=`) },
      });
    const { uid } = (await client.get('/api/rapidoreach/uid')).json();
    expect(uid).toBe((await wallOf(client, 'rapidoreach')).uid);
    expect(uid.startsWith(`${user.id.replace(/-/g, '')}-`)).toBe(true);
  });

  it('serves the wall page, framable by our own pages only, saying loudly that it is a sandbox', async () => {
    const wall = await wallOf(client, 'bitlabs');
    const page = await client.get(wall.embed.url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'self'");
    expect(page.text).toContain('SANDBOX');
    expect(page.text).toContain('Install game app');
  });

  it('Complete sends a signed postback server to server and credits once; Reverse takes it back', async () => {
    for (const id of ['rapidoreach', 'lootably']) {
      const wall = await wallOf(client, id);
      const before = await points();
      const done = await form(client, `/sandbox/offerwalls/${id}/complete`, { uid: wall.uid, offerId: 'sbx-game' });
      expect(done.status).toBe(303);
      expect(done.headers.get('location')).toBe(`/sandbox/offerwalls/${id}?uid=${encodeURIComponent(wall.uid)}&notice=completed`);
      expect(await points()).toBe(before + 120);

      const page = await client.get(done.headers.get('location')!);
      expect(page.text).toContain('sent a signed postback');
      const transactionId = /name="transactionId" value="([^"]+)"/.exec(page.text)![1];
      const reversed = await form(client, `/sandbox/offerwalls/${id}/reverse`, { uid: wall.uid, transactionId });
      expect(reversed.headers.get('location')).toMatch(/notice=reversed$/);
      expect(await points()).toBe(before);
      const again = await form(client, `/sandbox/offerwalls/${id}/reverse`, { uid: wall.uid, transactionId });
      expect(again.headers.get('location')).toMatch(/notice=reversed$/);
      expect(await points()).toBe(before);
    }
    await earningSettled(sys);
    const tasks = (await client.get('/api/tasks')).json();
    expect(tasks.map((t: { provider: string; taskType: string; completed: boolean }) => [t.provider, t.taskType, t.completed])).toEqual([
      ['lootably', 'app_install', false],
      ['rapidoreach', 'app_install', false],
    ]);
    expect(await points()).toBe(SIGNUP_BONUS_POINTS);
  });

  it('refuses a visitor, a wall opened for another user, and reversing another user’s transaction', async () => {
    const wall = await wallOf(client, 'cpx');
    expect((await sys.client().get(wall.embed.url)).status).toBe(401);
    // Only the gateway says who is signed in: a client naming someone in that header is not believed.
    const claimed = { headers: { [SANDBOX_SIGNED_IN_USER_HEADER]: user.id } };
    expect((await sys.client().get(wall.embed.url, claimed)).status).toBe(401);
    const other = sys.client();
    await signUpEarner(other, sys.mail, {}, sys);
    expect((await other.get(wall.embed.url)).status).toBe(403);
    expect((await other.get(wall.embed.url, claimed)).status).toBe(403);
    const stolen = await form(other, '/sandbox/offerwalls/cpx/complete', { uid: wall.uid, offerId: 'sbx-survey' });
    expect(stolen.status).toBe(403);
    expect((await form(client, '/sandbox/offerwalls/cpx/complete', { uid: wall.uid, offerId: 'no-such-offer' })).status).toBe(404);

    const done = await form(client, '/sandbox/offerwalls/cpx/complete', { uid: wall.uid, offerId: 'sbx-video' });
    const transactionId = /name="transactionId" value="([^"]+)"/.exec((await client.get(done.headers.get('location')!)).text)![1];
    const hijack = await form(other, '/sandbox/offerwalls/cpx/reverse', { uid: (await wallOf(other, 'cpx')).uid, transactionId });
    expect(hijack.headers.get('location')).toMatch(/notice=refused$/);
    expect(await points()).toBe(SIGNUP_BONUS_POINTS + 25);
  });

  it('serves only the browser-facing emulators through the app’s address: not KeepGo’s API, not siteverify', async () => {
    const visitor = sys.client();
    expect((await visitor.get('/sandbox/keepgo/api/v2/lines')).status).toBe(404);
    expect((await visitor.get('/sandbox/keepgo/_control')).status).toBe(404);
    expect((await visitor.post('/sandbox/captcha/siteverify', {})).status).toBe(404);
    expect((await visitor.get('/sandbox/offerwalls/no-such-wall?uid=x')).status).toBe(400);
  });

  it('answers 401 to a visitor on the earning routes', async () => {
    const visitor = sys.client();
    for (const path of ['/api/tasks', '/api/offerwalls', '/api/rapidoreach/uid']) expect((await visitor.get(path)).status).toBe(401);
  });
});
