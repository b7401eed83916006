import type { SignedUpUser } from '../support/accounts';
import { HttpClient } from '../support/http-client';
import { startSystem, System } from '../support/system';
import { callPostback, earningSettled, postbackFor, signUpEarner, signedPostbackUrl } from './earning-support';

/**
 * Security check 17 for the source-IP allow-list: the gateway believes X-Forwarded-For only from
 * the proxies TRUST_PROXY names (here: loopback, as a local reverse proxy would be), and then only
 * the address that proxy appended — a client cannot spoof its way onto the allow-list.
 */
describe('offer-wall postbacks: source address allow-list behind a proxy', () => {
  const CPX = { appId: '31337', secret: 'live-cpx-secure-hash' };
  const PROVIDER_IP = '198.51.100.1';
  let sys: System;
  let client: HttpClient;
  let user: SignedUpUser;

  beforeAll(async () => {
    sys = await startSystem({
      services: ['identity', 'rewards', 'esim', 'notifications', 'webhooks'],
      env: { CPX_APP_ID: CPX.appId, CPX_SECURE_HASH: CPX.secret, CPX_ALLOWED_IPS: PROVIDER_IP },
      gatewayEnv: { TRUST_PROXY: 'loopback' },
    });
    client = sys.client();
    user = await signUpEarner(client, sys.mail, {}, sys);
  });
  afterAll(() => sys?.stop());

  const points = async () => {
    await earningSettled(sys);
    return (await client.get('/api/user')).json().points as number;
  };
  const viaProxy = (url: string, forwardedFor: string) => callPostback(url, { headers: { 'x-forwarded-for': forwardedFor } });

  it('credits a live-signed postback the proxy received from an allowed address', async () => {
    const before = await points();
    expect(await viaProxy(signedPostbackUrl(sys, 'cpx', postbackFor(user.id, 50), CPX), PROVIDER_IP)).toMatchObject({
      status: 200,
      body: '1',
    });
    expect(await points()).toBe(before + 50);
  });

  it('credits nothing when the client spoofs the allowed address in X-Forwarded-For, or sends none', async () => {
    const before = await points();
    const url = signedPostbackUrl(sys, 'cpx', postbackFor(user.id, 50), CPX);
    expect(await viaProxy(url, `${PROVIDER_IP}, 203.0.113.9`)).toMatchObject({ status: 403, body: 'rejected_ip' });
    expect(await callPostback(url)).toMatchObject({ status: 403, body: 'rejected_ip' });
    expect(await points()).toBe(before);
  });

  it('offers the live CPX widget (not the sandbox) to the signed-in user', async () => {
    const { walls } = (await client.get('/api/offerwalls')).json();
    expect(walls.find((w: { id: string }) => w.id === 'cpx')).toMatchObject({
      sandbox: false,
      embed: { kind: 'script', config: { app_id: 31337, ext_user_id: user.id } },
    });
  });
});
