import { randomUUID } from 'node:crypto';
import { CAPTCHA_REQUIRED_MESSAGE, ICCID_RULE_MESSAGE, Locale, maskIccid } from '@esim/contracts';
import { EMAIL_MESSAGES } from '../../services/notifications/src/templates/locales';
import { signUp } from '../support/accounts';
import type { System } from '../support/system';
import {
  balance,
  DEMO_ICCID,
  expectLedgerSound,
  newEsim,
  redeem,
  Redeemer,
  signUpRedeemer,
  startRedemptionSystem,
  topUp,
  topUpTo,
  transfersOf,
  UNKNOWN_ICCID,
} from './redemption-support';

/** POST /api/redeem-points over HTTP: gateway → rewards (reserve) → esim (KeepGo emulator) → rewards (settle). */
describe('redeeming points for eSIM data', () => {
  let sys: System;
  let ana: Redeemer;

  beforeAll(async () => {
    sys = await startRedemptionSystem();
    ana = await signUpRedeemer(sys, { name: 'Ana' });
  });
  afterEach(() => expectLedgerSound(sys));
  afterAll(() => sys?.stop());

  const statement = async () => (await ana.client.get('/api/points-statement')).json().entries as Array<Record<string, unknown>>;

  it('refuses without the captcha mark (403), whatever the balance, and spends nothing', async () => {
    const bob = sys.client();
    await signUp(bob, sys.mail);
    const res = await redeem(bob, topUp(DEMO_ICCID));
    expect(res.status).toBe(403);
    expect(res.json().message).toBe(CAPTCHA_REQUIRED_MESSAGE);
    expect((await redeem(sys.client(), topUp(DEMO_ICCID))).status).toBe(401);
  });

  it('refuses below 1000 points with "Insufficient points", naming needed and current points, and changes nothing', async () => {
    const before = await statement();
    expect(await balance(ana.client)).toBe(100);
    const res = await redeem(ana.client, topUp(DEMO_ICCID));
    expect(res.status).toBe(409);
    expect(res.json()).toMatchObject({ code: 'conflict', reason: 'insufficient_points', details: { requested: 1000, available: 100 }, message: 'Insufficient points: you need 1000 points but only have 100.' });
    expect(await balance(ana.client)).toBe(100);
    expect(await statement()).toEqual(before);
  });

  it('refuses 999 points for 1GB', async () => {
    await topUpTo(sys, ana, 999);
    const res = await redeem(ana.client, topUp(DEMO_ICCID, '1GB'));
    expect(res.status).toBe(409);
    expect(res.json().message).toBe('Insufficient points: you need 1000 points but only have 999.');
    expect(await balance(ana.client)).toBe(999);
  });

  it('refuses malformed requests with the rule, before anything is reserved', async () => {
    const before = await balance(ana.client);
    for (const iccid of ['123', '8900000000000001', '9900000000000000001', '890000000000000000001', '89000000000000000a01', ' ', '']) {
      const res = await redeem(ana.client, topUp(iccid));
      expect({ iccid, status: res.status, message: res.json().message }).toEqual({ iccid, status: 400, message: ICCID_RULE_MESSAGE });
    }
    expect((await redeem(ana.client, { purchaseType: 'existing' })).json().message).toBe('Please select a data plan');
    expect((await redeem(ana.client, { planTier: '2GB', purchaseType: 'existing', iccid: DEMO_ICCID })).json().message).toBe('Please select a data plan');
    expect((await redeem(ana.client, { planTier: '1GB', purchaseType: 'new' })).json().message).toBe('Please choose a country');
    expect((await redeem(ana.client, { planTier: '1GB', purchaseType: 'new', country: 'FR' })).status).toBe(400);
    const noKey = await redeem(ana.client, topUp(DEMO_ICCID), null);
    expect(noKey.status).toBe(400);
    expect(noKey.json().message).toBe('The Idempotency-Key header is required');
    expect((await redeem(ana.client, topUp(DEMO_ICCID), 'short')).status).toBe(400);
    expect(await balance(ana.client)).toBe(before);
  });

  it('redeems exactly 1000 points for 1GB onto the demo ICCID: completed, balance down exactly 1000', async () => {
    await topUpTo(sys, ana, 1000);
    const res = await redeem(ana.client, topUp(DEMO_ICCID));
    expect(res.status).toBe(200);
    const body = res.json();
    // The demo line is not in Ana's wallet: the data is added, and she sees it by its masked ICCID only.
    expect(body).toMatchObject({
      status: 'completed',
      amountGB: 1,
      pointsUsed: 1000,
      iccid: maskIccid(DEMO_ICCID),
      lpaCode: null,
      qrCode: null,
      message: expect.stringContaining('1GB'),
    });
    expect(await balance(ana.client)).toBe(0);
    expect(await transfersOf(sys, body.redemptionId)).toEqual([
      { kind: 'reservation', amount: 1000 },
      { kind: 'redemption', amount: 1000 },
    ]);
    const user = (await ana.client.get('/api/user')).json();
    expect(user).toMatchObject({ dataGiftedGB: 1, iccid: DEMO_ICCID, planTierLastChosen: '1GB' });
    expect(Date.now() - Date.parse(user.lastGiftedAt)).toBeLessThan(60_000);
    const [spent, reserved] = await statement();
    expect(spent).toMatchObject({ kind: 'spent', points: 0, amount: 1000, state: 'done', redemptionId: body.redemptionId });
    expect(reserved).toMatchObject({ kind: 'reserved', points: -1000, amount: 1000, state: 'done', redemptionId: body.redemptionId });
  });

  it('answers a new US eSIM with esim_activation_ready: an 89… ICCID, an LPA code, a QR code; and emails it', async () => {
    await topUpTo(sys, ana, 1000);
    const mails = sys.mail.messages.length;
    const res = await redeem(ana.client, newEsim('1GB', 'US'));
    expect(res.status).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      status: 'esim_activation_ready',
      amountGB: 1,
      pointsUsed: 1000,
      iccid: expect.stringMatching(/^89\d{17,18}$/),
      lpaCode: expect.stringMatching(/^LPA:1\$[a-z0-9.-]+\$[A-Z0-9-]+$/),
      qrCode: expect.stringMatching(/^data:image\/png;base64,[A-Za-z0-9+/]+=*$/),
      giftId: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect(body).toHaveProperty('msisdn');
    expect(await balance(ana.client)).toBe(0);

    const mail = await sys.mail.waitForMail(ana.email, { after: mails, subject: /eSIM/ });
    const { locale } = (await ana.client.get('/api/user')).json();
    const texts = EMAIL_MESSAGES[locale as Locale].esimReady;
    expect(mail.language).toBe(locale);
    expect(mail.subject).toBe(texts.subject);
    expect(mail.text).toContain(texts.scan);
    expect(mail.text).toContain(texts.manual);
    expect(mail.text).toContain(body.lpaCode);
    expect(mail.html).toMatch(/<img[^>]+src="(cid:|data:image\/png;base64,)/);

    const lines = (await ana.client.get('/api/esim-lines')).json().lines;
    // The demo line Ana topped up earlier is not hers: only the eSIM she received is in her wallet.
    expect(lines.map((l: { iccid: string }) => l.iccid)).toEqual([body.iccid]);
    expect(lines[0]).toMatchObject({ lpaCode: body.lpaCode, source: 'redeemed', totalGB: 1, qrCode: expect.stringMatching(/^data:image\/png/) });
  });

  it('refuses 2999 points for 3GB and 5GB', async () => {
    await topUpTo(sys, ana, 2999);
    for (const [tier, needed] of [['3GB', 3000], ['5GB', 5000]] as const) {
      const res = await redeem(ana.client, newEsim(tier));
      expect(res.status).toBe(409);
      expect(res.json().message).toBe(`Insufficient points: you need ${needed} points but only have 2999.`);
    }
    expect(await balance(ana.client)).toBe(2999);
  });

  it('spends once for one Idempotency-Key, asked twice in a row and twice at once', async () => {
    await topUpTo(sys, ana, 3000);
    const key = randomUUID();
    const first = await redeem(ana.client, topUp(DEMO_ICCID), key);
    const again = await redeem(ana.client, topUp(DEMO_ICCID), key);
    expect(first.status).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect(await balance(ana.client)).toBe(2000);

    const key2 = randomUUID();
    const both = await Promise.all([redeem(ana.client, topUp(DEMO_ICCID), key2), redeem(ana.client, topUp(DEMO_ICCID), key2)]);
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    expect(both[0].json().redemptionId).toBe(both[1].json().redemptionId);
    expect(await balance(ana.client)).toBe(1000);
    expect(await transfersOf(sys, both[0].json().redemptionId)).toHaveLength(2);

    const other = await redeem(ana.client, newEsim(), key);
    expect(other.status).toBe(409);
    expect(other.json().reason).toBe('idempotency_key_reused');
    expect(await balance(ana.client)).toBe(1000);
  });

  it('releases the points when the provider refuses (line not found), with the fragment the claim page maps', async () => {
    await topUpTo(sys, ana, 1000);
    const res = await redeem(ana.client, topUp(UNKNOWN_ICCID));
    expect(res.status).toBe(422);
    expect(res.json()).toMatchObject({ reason: 'provider_refused', message: expect.stringContaining('line not found') });
    const { redemptionId } = res.json().details;
    expect(await balance(ana.client)).toBe(1000);
    expect(await transfersOf(sys, redemptionId)).toEqual([
      { kind: 'reservation', amount: 1000 },
      { kind: 'release', amount: 1000 },
    ]);
    const [released, reserved] = await statement();
    expect(released).toMatchObject({ kind: 'released', points: 1000, state: 'done', redemptionId });
    expect(reserved).toMatchObject({ kind: 'reserved', points: -1000, state: 'released', redemptionId });
    const followUp = await ana.client.get(`/api/redemptions/${redemptionId}`);
    expect(followUp.json()).toMatchObject({ status: 'failed', pointsUsed: 0, message: expect.stringContaining('line not found') });
  });

  it('lists every ledger movement newest first, with provider and transaction or redemption id, in pages', async () => {
    const all = await statement();
    expect(all.map((e) => e.kind)).toContain('signup_bonus');
    expect(all.at(-1)).toMatchObject({ kind: 'signup_bonus', points: 100, state: 'done' });
    const earned = all.find((e) => e.kind === 'earned')!;
    expect(earned).toMatchObject({ provider: 'cpx', transactionId: expect.stringMatching(/^test-/), state: 'done' });
    expect(all.reduce((sum, e) => sum + (e.points as number), 0)).toBe(await balance(ana.client));
    const times = all.map((e) => e.occurredAt as string);
    expect([...times].sort().reverse()).toEqual(times);

    const page1 = (await ana.client.get('/api/points-statement?limit=3')).json();
    const page2 = (await ana.client.get(`/api/points-statement?limit=3&before=${page1.nextCursor}`)).json();
    expect([...page1.entries, ...page2.entries]).toEqual(all.slice(0, 6));
    expect((await ana.client.get('/api/points-statement?limit=1000')).status).toBe(400);
    expect((await ana.client.get('/api/points-statement?before=abc')).status).toBe(400);
    expect((await sys.client().get('/api/points-statement')).status).toBe(401);
  });

  it('draws the QR code of an activation code as a PNG, for bounded input only', async () => {
    const res = await fetch(`${sys.url}/api/generate-qr`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: [...ana.client.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
      body: JSON.stringify({ data: 'LPA:1$smdp.example.com$ABCDE-12345' }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    const png = Buffer.from(await res.arrayBuffer());
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect((await ana.client.post('/api/generate-qr', { data: 'x'.repeat(513) })).status).toBe(400);
    expect((await ana.client.post('/api/generate-qr', { data: '' })).status).toBe(400);
    expect((await ana.client.post('/api/generate-qr', {})).status).toBe(400);
  });
});
