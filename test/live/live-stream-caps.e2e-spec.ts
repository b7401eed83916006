import { waitFor } from '@esim/testing';
import { LiveHub } from '../../services/gateway/src/user-view/live-hub';
import { signUp } from '../support/accounts';
import type { HttpClient } from '../support/http-client';
import { startSystem, System } from '../support/system';
import { LiveStreamClient } from './live-support';

const PER_ADDRESS = 3;
const PER_GATEWAY = 7;

/**
 * Audit finding 8: live streams were capped per user only, so 30 accounts behind one address
 * held 480 of them. A client network and a gateway replica now have caps of their own, each
 * refused with a 429 and its declared reason. The gateway believes X-Forwarded-For from loopback
 * here (TRUST_PROXY), so one test process can be several client addresses.
 */
describe('live stream caps per address and per gateway', () => {
  let sys: System;
  const users: HttpClient[] = [];
  const open: LiveStreamClient[] = [];

  beforeAll(async () => {
    sys = await startSystem({
      services: ['identity', 'rewards', 'esim', 'notifications'],
      gatewayEnv: { TRUST_PROXY: 'loopback', LIVE_STREAMS_PER_ADDRESS: String(PER_ADDRESS), LIVE_STREAMS_PER_GATEWAY: String(PER_GATEWAY) },
    });
    for (let i = 0; i < 3; i++) {
      const client = sys.client();
      await signUp(client, sys.mail, { name: `Streamer ${i}` });
      users.push(client);
    }
  });
  afterAll(async () => {
    for (const s of open) s.close();
    await sys?.stop();
  });

  const held = () => sys.apps.gateway!.get(LiveHub).count();

  /** Opens a stream of `user` from `address`; waits for its first view when it is accepted. */
  const stream = async (user: HttpClient, address: string): Promise<LiveStreamClient> => {
    const s = LiveStreamClient.of(user, { 'x-forwarded-for': address });
    open.push(s);
    await s.opened;
    if (s.status === 200) await s.next((m) => m.event === 'user');
    return s;
  };
  const refusedWith = async (s: LiveStreamClient) => {
    await s.closed();
    return { status: s.status, body: JSON.parse(s.body) };
  };

  it('refuses one address past its cap, whichever of its accounts asks, and lets it in again when one closes', async () => {
    const a = '198.51.100.10';
    const accepted = [await stream(users[0], a), await stream(users[1], a), await stream(users[2], a)];
    expect(accepted.map((s) => s.status)).toEqual([200, 200, 200]);

    expect(await refusedWith(await stream(users[0], a))).toEqual({
      status: 429,
      body: { code: 'rate_limited', reason: 'too_many_streams_from_address', message: 'Too many open live streams. Close a tab and try again.' },
    });
    // Another address is not affected.
    expect((await stream(users[0], '198.51.100.20')).status).toBe(200);

    accepted[0].close();
    await waitFor(() => held() === 3, { what: 'the gateway to let the closed stream go' });
    expect((await stream(users[1], a)).status).toBe(200);
  });

  it('refuses any address once the gateway holds its cap', async () => {
    // Held now: 3 from .10, 1 from .20.
    expect((await stream(users[2], '198.51.100.20')).status).toBe(200);
    expect((await stream(users[2], '198.51.100.30')).status).toBe(200);
    expect((await stream(users[1], '198.51.100.30')).status).toBe(200);
    expect(held()).toBe(PER_GATEWAY);
    expect(await refusedWith(await stream(users[0], '198.51.100.40'))).toMatchObject({ status: 429, body: { code: 'rate_limited', reason: 'too_many_streams_on_server' } });
  });
});
