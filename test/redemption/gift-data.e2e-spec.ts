import { CAPTCHA_REQUIRED_MESSAGE, maskIccid } from '@esim/contracts';
import { uniqueEmail } from '../support/accounts';
import type { System } from '../support/system';
import pt from '../../services/notifications/src/templates/locales/pt.json';
import {
  balance,
  claimGift,
  DEMO_ICCID,
  expectLedgerSound,
  newEsim,
  PASSING_CAPTCHA,
  Redeemer,
  signUpRedeemer,
  startRedemptionSystem,
  topUp,
  UNKNOWN_ICCID,
} from './redemption-support';

const BOSS = uniqueEmail('boss');

/** Admin gifts over HTTP: granted by an admin (emailed, shown until claimed), claimed once through /api/gift-data at no point cost. */
describe('data gifts', () => {
  let sys: System;
  let boss: Redeemer;
  let lia: Redeemer;

  beforeAll(async () => {
    sys = await startRedemptionSystem({ env: { ADMIN_EMAILS: BOSS } });
    [boss, lia] = await Promise.all([signUpRedeemer(sys, { email: BOSS, name: 'Boss' }), signUpRedeemer(sys, { name: 'Lia', locale: 'pt' })]);
  });
  afterEach(() => expectLedgerSound(sys));
  afterAll(() => sys?.stop());

  const grant = (userId: string, body: unknown = { planTier: '1GB', iccid: 'admin-gifted' }, as = boss) => as.client.post(`/api/admin/gift-data/${userId}`, body);
  const gifts = async () => (await lia.client.get('/api/gifts')).json();

  it('answers 409 to gift-data when the user has no gift, and changes nothing', async () => {
    const res = await claimGift(lia.client, newEsim());
    expect(res.status).toBe(409);
    expect(res.json()).toMatchObject({ reason: 'no_covering_gift', message: 'You have no unclaimed data gift to claim the 1GB plan with.' });
    expect(await gifts()).toEqual({ dataGiftedGB: 0, pendingGifts: [], gifts: [] });
    expect(await balance(lia.client)).toBe(100);
  });

  it('lets only admins grant, only to existing users, only 1, 3 or 5 GB', async () => {
    expect((await grant(boss.id, undefined, lia)).status).toBe(403);
    expect((await sys.client().post(`/api/admin/gift-data/${lia.id}`, { planTier: '1GB' })).status).toBe(401);
    const unknown = await grant('00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
    expect(unknown.json().message).toBe('User not found');
    expect((await grant('not-a-user')).status).toBe(404);
    for (const body of [{ planTier: '10GB', iccid: 'admin-gifted' }, { iccid: 'admin-gifted' }, { planTier: '1GB', iccid: '8900000000000000001' }]) {
      const res = await grant(lia.id, body);
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
    }
    expect((await grant(lia.id, {})).json().message).toBe('Missing selection: Please select a user and plan tier.');
    expect((await gifts()).pendingGifts).toEqual([]);
  });

  it('grants a claimable gift: the user is emailed in their language and sees it until claimed', async () => {
    const mails = sys.mail.messages.length;
    const res = await grant(lia.id);
    expect(res.status).toBe(201);
    expect(res.json()).toMatchObject({ userId: lia.id, amountGB: 1, planTier: '1GB', status: 'granted' });
    const mail = await sys.mail.waitForMail(lia.email, { after: mails });
    expect(mail.subject).toBe(pt.dataGifted.subject.replace('{{amountGB}}', '1'));
    expect(mail.language).toBe('pt');
    // The link opens the dashboard's gift card.
    expect(mail.text).toContain(`${sys.url}/dashboard#gifts`);
    const giftId = res.json().giftId;
    expect(await gifts()).toEqual({
      dataGiftedGB: 0,
      pendingGifts: [{ giftId, amountGB: 1, planTier: '1GB', grantedAt: expect.any(String) }],
      gifts: [{ giftId, amountGB: 1, planTier: '1GB', state: 'pending', grantedAt: expect.any(String), deliveredGB: null, deliveredAt: null }],
    });
    // The admin sees the gift the moment it is granted, before any claim: in the stat cards and in the user row.
    expect((await boss.client.get('/api/admin/stats')).json()).toMatchObject({ totalDataGifted: 0, giftsGrantedGB: 1, giftsClaimedGB: 0, giftsPendingGB: 1 });
    const rows = (await boss.client.get(`/api/admin/users?q=${encodeURIComponent(lia.email)}`)).json();
    expect(rows).toEqual([expect.objectContaining({ id: lia.id, dataGiftedGB: 0, giftsGrantedGB: 1, giftsClaimedGB: 0, giftsPendingGB: 1 })]);
  });

  it('does not let a 1GB gift cover 3GB, then claims it once, at no point cost', async () => {
    const tooBig = await claimGift(lia.client, newEsim('3GB'));
    expect(tooBig.status).toBe(409);
    expect(tooBig.json().message).toBe('No unclaimed data gift covers the 3GB plan: your largest gift is 1GB.');

    const claimed = await claimGift(lia.client, newEsim('1GB', 'BR'));
    expect(claimed.status).toBe(200);
    expect(claimed.json()).toMatchObject({
      status: 'esim_activation_ready',
      amountGB: 1,
      pointsUsed: 0,
      iccid: expect.stringMatching(/^89\d{17,18}$/),
      lpaCode: expect.stringMatching(/^LPA:1\$/),
      qrCode: expect.stringMatching(/^data:image\/png;base64,/),
    });
    expect(await balance(lia.client)).toBe(100);
    expect(await gifts()).toMatchObject({
      dataGiftedGB: 1,
      pendingGifts: [],
      gifts: [{ amountGB: 1, state: 'delivered', deliveredGB: 1, deliveredAt: expect.any(String) }],
    });
    expect((await lia.client.get('/api/user')).json()).toMatchObject({ dataGiftedGB: 1, iccid: claimed.json().iccid, planTierLastChosen: '1GB' });

    const twice = await claimGift(lia.client, newEsim('1GB', 'BR'));
    expect(twice.status).toBe(409);
    expect(twice.json().reason).toBe('no_covering_gift');
  });

  it('answers a repeated claim (same Idempotency-Key) with the same redemption, claiming one gift', async () => {
    await grant(lia.id, { planTier: '3GB', iccid: 'admin-gifted' });
    await grant(lia.id, { planTier: '3GB', iccid: 'admin-gifted' });
    const key = 'gift-claim-key-0001';
    const [a, b] = await Promise.all([claimGift(lia.client, topUp(DEMO_ICCID, '3GB'), key), claimGift(lia.client, topUp(DEMO_ICCID, '3GB'), key)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.json()).toEqual(b.json());
    expect(a.json()).toMatchObject({ status: 'completed', amountGB: 3, pointsUsed: 0, iccid: maskIccid(DEMO_ICCID), lpaCode: null, qrCode: null });
    expect((await gifts()).pendingGifts).toHaveLength(1);
    expect((await gifts()).dataGiftedGB).toBe(4);
  });

  it('gives a gift back when the provider refuses it (line not found), so it can be claimed again', async () => {
    const res = await claimGift(lia.client, topUp(UNKNOWN_ICCID, '3GB'));
    expect(res.status).toBe(422);
    expect(res.json().message).toContain('line not found');
    expect((await gifts()).pendingGifts).toMatchObject([{ amountGB: 3 }]);
    // The refused ICCID lookup spent the captcha mark (docs/redemption.md, "ICCID lookups").
    expect((await claimGift(lia.client, topUp(DEMO_ICCID, '1GB'))).json()).toMatchObject({ reason: 'captcha_required', message: CAPTCHA_REQUIRED_MESSAGE });
    expect((await lia.client.post('/api/verify-captcha', { token: PASSING_CAPTCHA })).status).toBe(200);
    expect((await claimGift(lia.client, topUp(DEMO_ICCID, '1GB'))).json()).toMatchObject({ status: 'completed', amountGB: 1, pointsUsed: 0 });
    expect(await gifts()).toMatchObject({ dataGiftedGB: 5, pendingGifts: [] });
    // The 3GB gift claimed for a 1GB plan: delivered 1 GB, used up whole.
    expect((await gifts()).gifts.map((g: { amountGB: number; state: string; deliveredGB: number | null }) => [g.amountGB, g.state, g.deliveredGB]).sort()).toEqual(
      [[1, 'delivered', 1], [3, 'delivered', 1], [3, 'delivered', 3]],
    );
  });

  it('counts delivered gifts in the admin stat card and the user table', async () => {
    expect((await boss.client.get('/api/admin/stats')).json()).toMatchObject({ totalDataGifted: 5, giftsGrantedGB: 7, giftsClaimedGB: 7, giftsPendingGB: 0 });
    const rows = (await boss.client.get('/api/admin/users?limit=100&offset=0')).json();
    const row = (Array.isArray(rows) ? rows : rows.users).find((u: { id: string }) => u.id === lia.id);
    expect(row).toMatchObject({ dataGiftedGB: 5, iccid: DEMO_ICCID, giftsGrantedGB: 7, giftsClaimedGB: 7, giftsPendingGB: 0 });
  });
});
