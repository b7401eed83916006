import { PublicNamesRpc } from '@esim/contracts';
import { RpcClient } from '@esim/platform';
import { asUser } from '@esim/testing';
import { signUp } from '../support/accounts';
import { startSystem, System } from '../support/system';

/**
 * privateProfile does what it says (product-decisions.md; docs/accounts.md, "Private profile"):
 * what one user may see of another (identity's get-public-names, for referral lists and anything
 * else shown to others) carries the name only while the profile is public, and nothing of a
 * deleted account.
 */
describe('private profile', () => {
  let sys: System;

  beforeAll(async () => {
    sys = await startSystem({ services: ['identity', 'rewards', 'esim', 'notifications'] });
  });
  afterAll(() => sys?.stop());

  it('shows a name to others only while the profile is public, and never a deleted account’s', async () => {
    const viewer = await signUp(sys.client(), sys.mail, { name: 'Vera Vista' });
    const paulaClient = sys.client();
    const paula = await signUp(paulaClient, sys.mail, { name: 'Paula Pública' });
    const rpc = sys.apps.gateway!.get(RpcClient);
    const seen = async () => (await asUser(viewer.id, () => rpc.call(PublicNamesRpc.getPublicNames, { userIds: [paula.id] }))).names;

    expect(await seen()).toEqual([{ userId: paula.id, displayName: 'Paula Pública' }]);

    expect((await paulaClient.patch('/api/user/settings', { privateProfile: true })).status).toBe(200);
    expect(await seen()).toEqual([{ userId: paula.id, displayName: null }]);
    // Paula herself still sees her name.
    expect((await paulaClient.get('/api/user')).json()).toMatchObject({ name: 'Paula Pública', settings: { privateProfile: true } });

    expect((await paulaClient.patch('/api/user/settings', { privateProfile: false })).status).toBe(200);
    expect(await seen()).toEqual([{ userId: paula.id, displayName: 'Paula Pública' }]);

    expect((await paulaClient.delete('/api/user/account')).status).toBe(200);
    expect(await seen()).toEqual([{ userId: paula.id, displayName: null }]);

    // Only a signed-in person asks.
    await expect(rpc.call(PublicNamesRpc.getPublicNames, { userIds: [viewer.id] })).rejects.toMatchObject({ status: 401 });
  });
});
