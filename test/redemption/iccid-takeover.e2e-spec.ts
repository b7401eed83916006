import { DataSource } from 'typeorm';
import { maskIccid, ProvisioningSucceeded } from '@esim/contracts';
import { waitFor } from '@esim/testing';
import { uniqueEmail } from '../support/accounts';
import type { System } from '../support/system';
import { LiveStreamClient } from '../live/live-support';
import {
  balance,
  claimGift,
  credit,
  expectLedgerSound,
  newEsim,
  PASSING_CAPTCHA,
  redeem,
  Redeemer,
  signUpRedeemer,
  startRedemptionSystem,
  topUp,
  topUpTo,
  transfersOf,
  UNKNOWN_ICCID,
} from './redemption-support';

const BOSS = uniqueEmail('boss');

interface WalletLine {
  iccid: string;
  lpaCode: string | null;
  qrCode: string | null;
  msisdn: string | null;
  totalGB: number;
}

/**
 * Topping up an eSIM never hands it over (docs/decisions.md, "Topping up someone else's eSIM"): a
 * victim owns a line; an attacker who knows its ICCID tops it up with points or with an admin gift.
 * The data lands, and nothing else does: no activation code, QR code, phone number or full ICCID
 * in the answer, the attacker's wallet, the live view or the events that feed the emails; the line
 * stays in the victim's wallet only. The owner topping up their own line sees it as before.
 */
describe('topping up an ICCID the user does not hold', () => {
  let sys: System;
  let boss: Redeemer;
  let vic: Redeemer;
  let mal: Redeemer;
  let victimLine: { iccid: string; lpaCode: string; msisdn: string | null };

  beforeAll(async () => {
    sys = await startRedemptionSystem({ env: { ADMIN_EMAILS: BOSS } });
    [boss, vic, mal] = await Promise.all([
      signUpRedeemer(sys, { email: BOSS, name: 'Boss' }),
      signUpRedeemer(sys, { name: 'Vic' }),
      signUpRedeemer(sys, { name: 'Mal' }),
    ]);
    await topUpTo(sys, vic, 1000);
    const bought = await redeem(vic.client, newEsim('1GB', 'US'));
    expect(bought.status).toBe(200);
    const { iccid, lpaCode, msisdn } = bought.json();
    expect(lpaCode).toMatch(/^LPA:1\$/);
    victimLine = { iccid, lpaCode, msisdn };
  });
  afterEach(() => expectLedgerSound(sys));
  afterAll(() => sys?.stop());

  const esimDb = () => sys.apps.esim!.get(DataSource);
  const walletOf = async (r: Redeemer): Promise<WalletLine[]> => (await r.client.get('/api/esim-lines')).json().lines;
  const holders = async (iccid: string): Promise<string[]> =>
    (await esimDb().query('SELECT user_id FROM esim_lines WHERE iccid = $1', [iccid])).map((r: { user_id: string }) => r.user_id);

  /** The ProvisioningSucceeded envelope esim stored for a redemption, once notifications and the gateway applied it. */
  const succeededEvent = async (redemptionId: string) => {
    const [row] = await esimDb().query(`SELECT id, envelope FROM outbox_events WHERE routing_key = $1 AND envelope->'payload'->>'redemptionId' = $2`, [
      ProvisioningSucceeded.routingKey,
      redemptionId,
    ]);
    expect(row).toBeDefined();
    const notifications = sys.apps.notifications!.get(DataSource);
    await waitFor(async () => (await notifications.query('SELECT 1 FROM inbox_events WHERE event_id = $1', [row.id])).length === 1, {
      what: 'notifications to apply the outcome',
    });
    return row.envelope.payload as Record<string, unknown>;
  };

  /** Nothing that names or installs the victim's line, anywhere in `text`. */
  const expectNoActivationMaterial = (what: string, text: string) => {
    expect({ what, lpa: text.includes(victimLine.lpaCode) }).toEqual({ what, lpa: false });
    expect({ what, iccid: text.includes(victimLine.iccid) }).toEqual({ what, iccid: false });
    if (victimLine.msisdn) expect({ what, msisdn: text.includes(victimLine.msisdn) }).toEqual({ what, msisdn: false });
    expect({ what, qr: /data:image\/png/.test(text) }).toEqual({ what, qr: false });
  };

  it('with points: the data is added, and the answer, wallet, live view and email event carry only the masked ICCID', async () => {
    await topUpTo(sys, mal, 1000);
    const live = LiveStreamClient.of(mal.client);
    await live.opened;
    await live.next();
    const mails = sys.mail.messages.length;

    const res = await redeem(mal.client, topUp(victimLine.iccid));

    expect(res.status).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      status: 'completed',
      amountGB: 1,
      pointsUsed: 1000,
      iccid: maskIccid(victimLine.iccid),
      lpaCode: null,
      qrCode: null,
      msisdn: null,
      message: `1GB was added to the eSIM ${maskIccid(victimLine.iccid)}.`,
    });
    expectNoActivationMaterial('the answer', res.text);
    expect(await transfersOf(sys, body.redemptionId)).toEqual([
      { kind: 'reservation', amount: 1000 },
      { kind: 'redemption', amount: 1000 },
    ]);
    expect(await balance(mal.client)).toBe(0);

    const followUp = await mal.client.get(`/api/redemptions/${body.redemptionId}`);
    expect(followUp.json()).toMatchObject({ status: 'completed', iccid: maskIccid(victimLine.iccid), lpaCode: null, qrCode: null });
    expectNoActivationMaterial('GET /api/redemptions/{id}', followUp.text);

    expect(await walletOf(mal)).toEqual([]);
    expect((await mal.client.get(`/api/esim-lines/${victimLine.iccid}/usage`)).status).toBe(404);

    const event = await succeededEvent(body.redemptionId);
    expect(event).toMatchObject({ kind: 'topup', ownLine: false, lpaCode: null, msisdn: null });
    const notice = await live.next((m) => m.data.happened?.kind === 'esim-topped-up');
    expect(notice.data.happened).toEqual({ kind: 'esim-topped-up', iccid: maskIccid(victimLine.iccid), amountGB: 1 });
    live.close();
    expectNoActivationMaterial('the live view', JSON.stringify(live.messages.map((m) => m.data.happened)));
    expectNoActivationMaterial('the emails', JSON.stringify(sys.mail.messages.slice(mails).filter((m) => m.to.includes(mal.email.toLowerCase()))));

    expect(await holders(victimLine.iccid)).toEqual([vic.id]);
    const [line] = await walletOf(vic);
    expect(line).toMatchObject({ iccid: victimLine.iccid, lpaCode: victimLine.lpaCode, qrCode: expect.stringMatching(/^data:image\/png/) });
  });

  it('with an admin gift: the claim adds the data and hands over nothing either', async () => {
    expect((await boss.client.post(`/api/admin/gift-data/${mal.id}`, { planTier: '1GB', iccid: 'admin-gifted' })).status).toBe(201);
    const res = await claimGift(mal.client, topUp(victimLine.iccid));

    expect(res.status).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ status: 'completed', amountGB: 1, pointsUsed: 0, iccid: maskIccid(victimLine.iccid), lpaCode: null, qrCode: null, msisdn: null });
    expectNoActivationMaterial('the gift claim answer', res.text);
    expectNoActivationMaterial('GET /api/redemptions/{id}', (await mal.client.get(`/api/redemptions/${body.redemptionId}`)).text);
    expect(await succeededEvent(body.redemptionId)).toMatchObject({ source: 'gift', ownLine: false, lpaCode: null, msisdn: null });
    expect(await walletOf(mal)).toEqual([]);
    const [claim] = await esimDb().query('SELECT own_line, lpa_code, msisdn FROM provisionings WHERE redemption_id = $1', [body.redemptionId]);
    expect(claim).toEqual({ own_line: false, lpa_code: null, msisdn: null });
    expect(await holders(victimLine.iccid)).toEqual([vic.id]);
  });

  it('the owner topping up their own line sees the full ICCID, the activation code and the QR code, as before', async () => {
    await topUpTo(sys, vic, 1000);
    const res = await redeem(vic.client, topUp(victimLine.iccid));

    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'completed',
      amountGB: 1,
      iccid: victimLine.iccid,
      lpaCode: victimLine.lpaCode,
      qrCode: expect.stringMatching(/^data:image\/png;base64,/),
      message: `1GB was added to your eSIM ${victimLine.iccid}.`,
    });
    expect(await succeededEvent(res.json().redemptionId)).toMatchObject({ ownLine: true, lpaCode: victimLine.lpaCode });
    expect(await walletOf(vic)).toEqual([expect.objectContaining({ iccid: victimLine.iccid, lpaCode: victimLine.lpaCode, totalGB: 2 })]);
    expect(await holders(victimLine.iccid)).toEqual([vic.id]);
  });

  it("answers a refusal about someone else's existing line as it answers an unknown one; the owner hears the real reason", async () => {
    // The provider stops offering refills for the line (a deactivated line has none).
    await sys.sandboxes.db('keepgo').query(`UPDATE keepgo_sandbox_lines SET status = 'Deactivated' WHERE iccid = $1`, [victimLine.iccid]);
    await credit(sys, mal.id, 1000);
    const stranger = await redeem(mal.client, topUp(victimLine.iccid));
    expect(stranger.status).toBe(422);
    expect(stranger.json()).toMatchObject({
      reason: 'provider_refused',
      message: `line not found (ICCID ${victimLine.iccid})`,
      details: { providerReason: 'line_not_found' },
    });
    expect(await mal.client.post('/api/verify-captcha', { token: PASSING_CAPTCHA })).toMatchObject({ status: 200 });
    const unknown = await redeem(mal.client, topUp(UNKNOWN_ICCID));
    expect(unknown.json()).toMatchObject({ reason: 'provider_refused', details: { providerReason: 'line_not_found' } });
    expect(unknown.json().message).toMatch(/^line not found/);
    expect(await balance(mal.client)).toBe(1000);

    await topUpTo(sys, vic, 1000);
    const owner = await redeem(vic.client, topUp(victimLine.iccid));
    expect(owner.status).toBe(422);
    expect(owner.json()).toMatchObject({ details: { providerReason: 'no_refills_available' }, message: expect.stringContaining('No refills available') });
  });
});
