import type { INestApplication } from '@nestjs/common';
import type Redis from 'ioredis';
import passport from 'passport';
import { BalanceChanged, EsimRpc, GiftSummaryChanged, IdentityRpc, ProfileChanged, RewardsRpc, SIGNUP_BONUS_POINTS, TasksCredited } from '@esim/contracts';
import { EventConsumer, RpcClient } from '@esim/platform';
import { DataSource } from 'typeorm';
import { runAdminCommand } from '../../services/identity/src/cli/admin-command';
import { shuffled, waitFor } from '@esim/testing';
import { startGateway } from '../../services/gateway/src/app';
import { LocalStrategy } from '../../services/gateway/src/auth/local.strategy';
import { REDIS } from '../../services/gateway/src/sessions/redis.provider';
import { LiveHub } from '../../services/gateway/src/user-view/live-hub';
import { UserViewFastPath } from '../../services/gateway/src/user-view/user-view-fast-path';
import { credit, ledgerBalance } from '../redemption/redemption-support';
import { signUp, SignedUpUser } from '../support/accounts';
import { HttpClient } from '../support/http-client';
import { freePort } from '../support/ports';
import { startSystem, System } from '../support/system';
import { appliedByGateway, envelopeOf, LiveStreamClient, publishEvent, publishEventBatch, viewSettled } from './live-support';

/**
 * The live user view (docs/live-view.md) with the real services and two gateway replicas sharing
 * Redis and the broker, as in production. Both answer GET /api/user in front of Express (the fast
 * path) when nothing unusual is asked; the same route behind Express answers the rest, and a query
 * string (which the fast path leaves alone) reaches it on purpose, to check both give one answer.
 */
describe('the live user view', () => {
  let sys: System;
  let gw1: INestApplication;
  let gw2: INestApplication;
  let url2: string;
  let redis: Redis;
  let ana: SignedUpUser;
  let anaClient: HttpClient;
  let ben: SignedUpUser;
  let benClient: HttpClient;
  const streams: LiveStreamClient[] = [];

  /** The same browser (cookie jar) talking to the other replica. */
  const onGw2 = (client: HttpClient) => {
    const other = new HttpClient(url2);
    for (const [k, v] of client.cookies) other.cookies.set(k, v);
    return other;
  };
  const sessionId = (client: HttpClient) => {
    const raw = decodeURIComponent(client.cookies.get('sid')!);
    return raw.slice(2, raw.lastIndexOf('.'));
  };
  const stream = (client: HttpClient, headers: Record<string, string> = {}) => {
    const s = LiveStreamClient.of(client, headers);
    streams.push(s);
    return s;
  };
  /**
   * Closes a gateway a test started for itself. passport keeps one global strategy per name, so
   * the gateway started last took over every gateway's sign-ins, and closed it would fail them:
   * they go back to the suite's own.
   */
  const closeOther = async (gateway: INestApplication) => {
    await gateway.close();
    passport.use('local', gw1.get(LocalStrategy));
  };
  const stored = (userId: string) => redis.hgetall(`user-view:${userId}`);
  const me = async (client: HttpClient) => {
    const res = await client.get('/api/user');
    expect(res.status).toBe(200);
    return res.json();
  };

  beforeAll(async () => {
    sys = await startSystem({ services: ['identity', 'rewards', 'esim', 'notifications'], gatewayEnv: { LIVE_HEARTBEAT_MS: '200' } });
    gw1 = sys.apps.gateway!;
    const port = await freePort();
    url2 = `http://127.0.0.1:${port}`;
    gw2 = await startGateway(
      sys.ns.env('gateway', { PUBLIC_URL: sys.url, PORT: String(port), SERVE_SPA: 'false', LIVE_HEARTBEAT_MS: '200' }),
    );
    redis = gw1.get<Redis>(REDIS);
    anaClient = sys.client();
    ana = await signUp(anaClient, sys.mail, { name: 'Ana Live' });
    benClient = sys.client();
    ben = await signUp(benClient, sys.mail, { name: 'Ben Live' });
    await waitFor(async () => (await me(anaClient)).points === SIGNUP_BONUS_POINTS && (await me(benClient)).points === SIGNUP_BONUS_POINTS, {
      what: 'the sign-up bonuses in the view',
    });
  });
  afterEach(() => {
    jest.restoreAllMocks();
    for (const s of streams.splice(0)) s.close();
  });
  afterAll(async () => {
    await gw2?.close();
    await sys?.stop();
  });

  describe('GET /api/user from the read model', () => {
    it('answers in front of Express on every replica without asking any service once the view is built, as Express would', async () => {
      await me(anaClient);
      const served = jest.spyOn(UserViewFastPath.prototype as unknown as { serve(): Promise<boolean> }, 'serve');
      const calls = [jest.spyOn(gw1.get(RpcClient), 'call'), jest.spyOn(gw2.get(RpcClient), 'call')];
      const fast = await anaClient.get('/api/user');
      const onTwo = await onGw2(anaClient).get('/api/user');
      for (let i = 0; i < 10; i++) expect((await anaClient.get('/api/user')).status).toBe(200);
      const viaExpress = await anaClient.get('/api/user?via=express');
      for (const spy of calls) expect(spy).not.toHaveBeenCalled();
      // Twelve answered in front of Express; the query string never reached it.
      expect(await Promise.all(served.mock.results.map((r) => r.value))).toEqual(Array(12).fill(true));

      expect(fast.json()).toMatchObject({ id: ana.id, name: 'Ana Live', email: ana.email, points: await ledgerBalance(sys, ana.id), dataGiftedGB: 0 });
      expect(onTwo.text).toBe(fast.text);
      // The answer an API route gets from the edge: helmet's headers, no-store, an ETag, the rolling
      // session cookie and a correlation id.
      expect(fast.headers.get('cache-control')).toBe('no-store');
      expect(fast.headers.get('etag')).toMatch(/^W\/".+"$/);
      expect(fast.headers.get('x-content-type-options')).toBe('nosniff');
      expect(fast.headers.get('content-security-policy')).toBeTruthy();
      expect(fast.headers.get('set-cookie')).toMatch(/^sid=s%3A[^;]+; Path=\/; Expires=[^;]+; HttpOnly; SameSite=Lax$/);
      expect(fast.headers.get('x-correlation-id')).toMatch(/^[0-9a-f-]{36}$/);
      // And exactly what the route behind Express answers: body and headers, but for what differs per answer.
      const headers = (h: Headers) =>
        Object.fromEntries([...h].filter(([k]) => !['date', 'x-correlation-id'].includes(k)).map(([k, v]) => [k, k === 'set-cookie' ? v.replace(/Expires=[^;]+/, 'Expires=…') : v]));
      expect(viaExpress.text).toBe(fast.text);
      expect(headers(fast.headers)).toEqual(headers(viaExpress.headers));
    });

    it('renews the session on the fast path as express-session does, and leaves everything unusual to the usual path', async () => {
      const key = `sess:${sessionId(anaClient)}`;
      await redis.expire(key, 100);
      const res = await anaClient.get('/api/user', { headers: { 'x-correlation-id': 'trace-me-123' } });
      expect(res.headers.get('x-correlation-id')).toBe('trace-me-123');
      expect(await redis.ttl(key)).toBeGreaterThan(1700);
      const expires = Date.parse(/Expires=([^;]+)/.exec(res.headers.get('set-cookie')!)![1]);
      expect(Math.abs(expires - (Date.now() + 30 * 60_000))).toBeLessThan(5_000);

      // A forged signature, no cookie, another path: the usual answers.
      const forged = new HttpClient(sys.url);
      forged.cookies.set('sid', anaClient.cookies.get('sid')!.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')));
      const refused = await forged.get('/api/user');
      expect({ status: refused.status, body: refused.json() }).toEqual({ status: 401, body: expect.objectContaining({ code: 'unauthorized' }) });
      expect((await sys.client().get('/api/user')).status).toBe(401);
      expect((await anaClient.get('/api/user?x=1')).json().id).toBe(ana.id);
    });

    it('rebuilds a missing view from the owners, and a stale one after the user changed something', async () => {
      await redis.del(`user-view:${ana.id}`);
      const calls = jest.spyOn(gw1.get(RpcClient), 'call');
      expect(await me(anaClient)).toMatchObject({ id: ana.id, points: await ledgerBalance(sys, ana.id) });
      expect(calls.mock.calls.map(([def]) => def.pattern).sort()).toEqual(
        [EsimRpc.getVersionedGiftSummary, IdentityRpc.getVersionedUser, RewardsRpc.getVersionedBalance].map((d) => d.pattern).sort(),
      );
      expect(await stored(ana.id)).toMatchObject({ 'balance.v': expect.any(String), 'identity.v': expect.any(String), 'gifts.v': '0' });

      // The user's own write: the very next read shows it, whatever the event is doing meanwhile.
      calls.mockClear();
      expect((await anaClient.patch('/api/user/settings', { marketingEmails: true })).status).toBe(200);
      expect((await me(anaClient)).settings.marketingEmails).toBe(true);
      expect(calls).toHaveBeenCalled();
      calls.mockClear();
      await viewSettled(sys);
      expect((await me(anaClient)).settings.marketingEmails).toBe(true);
      expect(calls).not.toHaveBeenCalled();
    });

    it("follows identity's changes made outside the gateway too (an operator granting admin)", async () => {
      await me(benClient);
      const calls = jest.spyOn(gw1.get(RpcClient), 'call');
      expect(await runAdminCommand(sys.apps.identity!.get(DataSource), 'grant', ben.email)).toMatchObject({ ok: true, changed: true });
      await viewSettled(sys);
      expect((await me(benClient)).isAdmin).toBe(true);
      expect(calls).not.toHaveBeenCalled();
      await runAdminCommand(sys.apps.identity!.get(DataSource), 'revoke', ben.email);
      await viewSettled(sys);
      expect((await me(benClient)).isAdmin).toBe(false);
    });

    it('shows what the ledger says once the balance event is in', async () => {
      const before = (await me(anaClient)).points;
      await credit(sys, ana.id, 250);
      expect((await me(anaClient)).points).toBe(before + 250);
      expect((await me(onGw2(anaClient))).points).toBe(before + 250);
    });

    it('never moves backwards: an older or repeated event is dropped, whatever order the events come in', async () => {
      // An older version of Ana's account needs a newer one first: a change of her own.
      const { settings } = await me(anaClient);
      expect((await anaClient.patch('/api/user/settings', { dataAlerts: !settings.dataAlerts })).status).toBe(200);
      await viewSettled(sys);
      const view = await stored(ana.id);
      const v = { points: Number(view['balance.v']), identity: Number(view['identity.v']) };
      const identity = JSON.parse(view.identity);

      const newer = await publishEvent(sys, BalanceChanged, { userId: ana.id, points: 5000, version: v.points + 10, changedAt: new Date().toISOString() });
      await appliedByGateway(gw1, newer);
      expect((await me(anaClient)).points).toBe(5000);
      for (const [points, version] of [
        [7, v.points + 5],
        [9, v.points + 10],
        [11, v.points],
      ]) {
        await appliedByGateway(gw1, await publishEvent(sys, BalanceChanged, { userId: ana.id, points, version, changedAt: new Date().toISOString() }));
      }
      expect((await me(anaClient)).points).toBe(5000);

      // Twenty versions at once, in a shuffled order, on both replicas: the highest one wins.
      const versions = shuffled(Array.from({ length: 20 }, (_, i) => v.points + 11 + i));
      const events = await Promise.all(versions.map((version) => publishEvent(sys, BalanceChanged, { userId: ana.id, points: version * 10, version, changedAt: new Date().toISOString() })));
      for (const e of events) await waitFor(async () => (await redis.exists(`inbox:gateway:${e.id}`)) === 1, { what: 'each event applied' });
      expect((await me(anaClient)).points).toBe((v.points + 30) * 10);
      // The same in one broker message (one group, handleAll: only the highest version is written), with an older one among them.
      const grouped = shuffled([v.points + 1, ...Array.from({ length: 20 }, (_, i) => v.points + 31 + i)])
        .map((version) => envelopeOf(BalanceChanged, { userId: ana.id, points: version * 10, version, changedAt: new Date().toISOString() }));
      await publishEventBatch(sys, grouped);
      for (const e of grouped) await appliedByGateway(gw1, e);
      expect((await me(anaClient)).points).toBe((v.points + 50) * 10);

      const older = await publishEvent(sys, ProfileChanged, {
        userId: ana.id,
        user: { ...identity, name: 'Old Name' },
        version: v.identity - 1,
        changedAt: new Date().toISOString(),
      });
      await appliedByGateway(gw1, older);
      expect((await me(anaClient)).name).toBe(identity.name);
      await appliedByGateway(gw1, await publishEvent(sys, ProfileChanged, { userId: ana.id, user: { ...identity, name: 'Ana Renamed' }, version: v.identity + 1, changedAt: new Date().toISOString() }));
      expect((await me(anaClient)).name).toBe('Ana Renamed');

      const summary = { dataGiftedGB: 3, iccid: '8900000000000000001', planTierLastChosen: '3GB', lastGiftedAt: new Date().toISOString() };
      await appliedByGateway(gw1, await publishEvent(sys, GiftSummaryChanged, { userId: ana.id, summary, version: 2, changedAt: new Date().toISOString() }));
      await appliedByGateway(gw1, await publishEvent(sys, GiftSummaryChanged, { userId: ana.id, summary: { ...summary, dataGiftedGB: 1 }, version: 1, changedAt: new Date().toISOString() }));
      expect(await me(anaClient)).toMatchObject({ dataGiftedGB: 3, iccid: summary.iccid, planTierLastChosen: '3GB' });

      // The owners still say otherwise: a rebuild (the view gone) brings their truth back.
      await redis.del(`user-view:${ana.id}`);
      expect(await me(anaClient)).toMatchObject({ dataGiftedGB: 0, name: 'Ana Live' });
    });
  });

  describe('GET /api/events', () => {
    it('opens only for a signed-in session of our own origin, uncompressed, with the view first', async () => {
      const visitor = new LiveStreamClient(sys.url);
      streams.push(visitor);
      await visitor.closed();
      expect(visitor.status).toBe(401);
      for (const headers of [{ origin: 'https://evil.example' }, { 'sec-fetch-site': 'cross-site' }] as Array<Record<string, string>>) {
        const foreign = stream(anaClient, headers);
        await foreign.closed();
        expect(foreign.status).toBe(403);
      }

      const live = stream(anaClient, { 'accept-encoding': 'gzip, br' });
      const first = await live.next((m) => m.event === 'user');
      expect(live.status).toBe(200);
      expect(live.headers['content-type']).toBe('text/event-stream; charset=utf-8');
      expect(live.headers['content-encoding']).toBeUndefined();
      expect(live.headers['cache-control']).toBe('no-store');
      expect(first.data).toEqual({ user: await me(anaClient), happened: null });
      // Heartbeats keep it open.
      await waitFor(async () => live.body.includes(': ping'), { what: 'a heartbeat' });
    });

    it("pushes a change consumed by one replica to the user's streams on both, and never to another user", async () => {
      // gw2 stops consuming: every event now lands on gw1, and reaches gw2's streams through Redis only.
      await gw2.get(EventConsumer).stop();
      try {
        const onOne = stream(anaClient);
        const onTwo = stream(onGw2(anaClient));
        const bens = stream(onGw2(benClient));
        for (const s of [onOne, onTwo, bens]) await s.next((m) => m.event === 'user');
        const before = (await me(anaClient)).points;

        await credit(sys, ana.id, 120);
        const credited = await publishEvent(sys, TasksCredited, { userId: ana.id, provider: 'cpx', tasks: 1, points: 120, creditedAt: new Date().toISOString() });
        await appliedByGateway(gw1, credited);
        for (const s of [onOne, onTwo]) {
          await s.next((m) => m.data.user?.points === before + 120);
          await s.next((m) => m.data.happened?.kind === 'points-credited');
          expect(s.messages.find((m) => m.data.happened)!.data.happened).toEqual({ kind: 'points-credited', points: 120, provider: 'cpx' });
        }
        // Ben's stream heard nothing of Ana: only his own first view. It is on the same replica as
        // onTwo, which has had Ana's push; a heartbeat written after it arrives after anything that
        // push could have written to Ben's stream.
        await bens.nextHeartbeat();
        expect(bens.messages.map((m) => m.data.user.id)).toEqual([ben.id]);
        expect(bens.body).not.toContain(ana.id);
        expect(bens.body).not.toContain(ana.email);
      } finally {
        await gw2.get(EventConsumer).start();
      }
    });

    it("pushes a view that a read rebuilt before the owner's event came: the open page does not keep the older one", async () => {
      const live = stream(anaClient);
      await live.next((m) => m.event === 'user');
      const before = (await me(anaClient)).points;
      // Neither replica consumes: the balance event waits in the broker while the user acts.
      await gw1.get(EventConsumer).stop();
      await gw2.get(EventConsumer).stop();
      try {
        await credit(sys, ana.id, 40, { settle: false });
        // A write through the gateway marks the view stale; the next read asks the owners.
        expect((await anaClient.patch('/api/user/settings', { dataAlerts: false })).status).toBe(200);
        expect((await me(anaClient)).points).toBe(before + 40);
        // The balance event has not been applied, and will change nothing when it is: the push
        // comes from the rebuild, or never.
        const pushed = await live.next((m) => m.data.user?.points === before + 40);
        expect(pushed.data).toMatchObject({ happened: null, user: { settings: { dataAlerts: false } } });
      } finally {
        await gw1.get(EventConsumer).start();
        await gw2.get(EventConsumer).start();
      }
      await viewSettled(sys);
      expect((await me(anaClient)).points).toBe(before + 40);
    });

    it('says a burst of credits as one notice per user and wall, the points summed, and nothing again when it is redelivered', async () => {
      const live = stream(anaClient);
      await live.next((m) => m.event === 'user');
      // What travels between the replicas: every announcement on Ana's and Ben's channels.
      const announced: string[] = [];
      const listener = redis.duplicate();
      listener.on('pmessage', (_pattern: string, channel: string) => announced.push(channel));
      await listener.psubscribe(`${sys.ns.id}:user-view:*`, `${sys.ns.id}:user-view-marker:*`);
      const consumed = () => [gw1, gw2].reduce((n, gw) => n + gw.get(EventConsumer).stats.applied + gw.get(EventConsumer).stats.duplicates, 0);
      try {
        const credited = (provider: 'cpx' | 'bitlabs', points: number[], userId = ana.id) => ({
          userId,
          provider,
          tasks: points.length,
          points: points.reduce((sum, p) => sum + p, 0),
          creditedAt: new Date().toISOString(),
        });
        // 40 credits from CPX (10 to 49 MB) in 8 batches of rewards, 10 from BitLabs (100 MB each) in 2, 5 for Ben in 1,
        // in one broker message as rewards' relay sends them: several events for one user and wall, as after a burst.
        const burst = shuffled([
          ...Array.from({ length: 8 }, (_, b) => credited('cpx', Array.from({ length: 5 }, (_, i) => 10 + b * 5 + i))),
          ...Array.from({ length: 2 }, () => credited('bitlabs', Array.from({ length: 5 }, () => 100))),
          credited('cpx', Array.from({ length: 5 }, () => 7), ben.id),
        ]);
        const events = burst.map((payload) => envelopeOf(TasksCredited, payload));
        await publishEventBatch(sys, events);
        for (const e of events) await appliedByGateway(gw1, e);
        await live.next((m) => m.data.happened?.provider === 'cpx');
        await live.next((m) => m.data.happened?.provider === 'bitlabs');

        // The same message again (a redelivery): every event is a duplicate, nothing is said twice.
        const before = consumed();
        await publishEventBatch(sys, events);
        await waitFor(async () => consumed() - before >= events.length, { what: 'the redelivered burst consumed' });
        // Redis hands out messages in the order it took them: once a marker published now has
        // reached the listener, so has anything the replicas published while consuming the burst.
        const marker = `${sys.ns.id}:user-view-marker:${Date.now()}`;
        await redis.publish(marker, '');
        await waitFor(() => announced.includes(marker), { what: 'the marker after the redelivered burst' });
        announced.splice(announced.indexOf(marker), 1);
        // And the stream's next heartbeat comes after whatever the gateway pushed before it.
        await live.nextHeartbeat();

        const notices = live.messages.filter((m) => m.data.happened).map((m) => m.data.happened);
        expect(notices).toHaveLength(2);
        expect(notices).toEqual(
          expect.arrayContaining([
            { kind: 'points-credited', provider: 'cpx', points: 1180 },
            { kind: 'points-credited', provider: 'bitlabs', points: 1000 },
          ]),
        );
        // One PUBLISH per user and wall for the 11 announcements (55 credits), not one each.
        expect(announced.sort()).toEqual([ana.id, ana.id, ben.id].map((id) => `${sys.ns.id}:user-view:${id}`).sort());
      } finally {
        listener.disconnect();
      }
    });

    it('ends the streams of a session signed out on the other replica, and only those', async () => {
      // Sessions of this test's own: Ben's first one stays signed in for the others.
      const signedIn = async () => {
        const client = sys.client();
        expect((await client.post('/api/login', { username: ben.email, password: ben.password })).status).toBe(200);
        return client;
      };
      const [leaving, second] = [await signedIn(), await signedIn()];
      const tabOne = stream(leaving);
      const tabTwo = stream(onGw2(leaving));
      const otherSession = stream(second);
      for (const s of [tabOne, tabTwo, otherSession]) await s.next((m) => m.event === 'user');

      expect((await onGw2(leaving).post('/api/logout')).status).toBe(200);
      for (const s of [tabOne, tabTwo]) {
        await s.closed(2_000);
        expect(s.messages.at(-1)).toEqual({ event: 'end', data: { reason: 'signed_out' } });
      }
      expect(otherSession.ended).toBe(false);
      expect(gw1.get(LiveHub).count(ben.id) + gw2.get(LiveHub).count(ben.id)).toBe(1);
    });

    it('ends a stream when its session expires', async () => {
      const port = await freePort();
      const gw3 = await startGateway(
        sys.ns.env('gateway', { PUBLIC_URL: sys.url, PORT: String(port), SERVE_SPA: 'false', LIVE_HEARTBEAT_MS: '200', SESSION_IDLE_SECONDS: '2' }),
      );
      try {
        const client = new HttpClient(`http://127.0.0.1:${port}`);
        expect((await client.post('/api/login', { username: ana.email, password: ana.password })).status).toBe(200);
        const live = stream(client);
        await live.next((m) => m.event === 'user');
        await live.closed(6_000);
        expect(live.messages.at(-1)).toEqual({ event: 'end', data: { reason: 'expired' } });
        expect((await client.get('/api/user')).status).toBe(401);
      } finally {
        await closeOther(gw3);
      }
    });
  });

  describe('behind a TLS-terminating proxy', () => {
    it('answers in front of Express with the Secure __Host- cookie, as Express would', async () => {
      const https = 'https://app.example.test';
      const port = await freePort();
      const tlsGw = await startGateway(sys.ns.env('gateway', { PUBLIC_URL: https, TRUST_PROXY: 'loopback', PORT: String(port), SERVE_SPA: 'false' }));
      try {
        const proxied = { 'x-forwarded-proto': 'https' };
        const client = new HttpClient(`http://127.0.0.1:${port}`);
        expect((await client.post('/api/login', { username: ana.email, password: ana.password }, { headers: proxied })).status).toBe(200);
        expect([...client.cookies.keys()]).toEqual(['__Host-sid']);
        await client.get('/api/user', { headers: proxied }); // after the sign-in (a write): rebuilt, then fresh
        const served = jest.spyOn(UserViewFastPath.prototype as unknown as { serve(): Promise<boolean> }, 'serve');
        const headers = (h: Headers) =>
          Object.fromEntries([...h].filter(([k]) => !['date', 'x-correlation-id'].includes(k)).map(([k, v]) => [k, k === 'set-cookie' ? v.replace(/Expires=[^;]+/, 'Expires=…') : v]));
        for (const asked of [proxied, {}]) {
          const a = await client.get('/api/user', { headers: asked });
          // The query string sends the same request to the route behind Express.
          const b = await client.get('/api/user?via=express', { headers: asked });
          expect({ status: a.status, body: a.text, headers: headers(a.headers) }).toEqual({ status: b.status, body: b.text, headers: headers(b.headers) });
        }
        // Over "https" the fast path answered, with the Secure cookie; over plain http it left the answer (no cookie) to Express.
        expect(await Promise.all(served.mock.results.map((r) => r.value))).toEqual([true, false]);
        expect((await client.get('/api/user', { headers: proxied })).headers.get('set-cookie')).toMatch(/^__Host-sid=s%3A[^;]+; Path=\/; Expires=[^;]+; HttpOnly; Secure; SameSite=Lax$/);
      } finally {
        await closeOther(tlsGw);
      }
    });

  });
});
