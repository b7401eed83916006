import type { DeadLettersResponse } from '@esim/contracts';
import { EventConsumer } from '@esim/platform';
import { waitFor } from '@esim/testing';
import es from '../../services/notifications/src/templates/locales/es.json';
import { credit, expectLedgerSound, ledgerBalance, newEsim, redeem, Redeemer, redemptionRow, signUpRedeemer, transfersOf } from '../redemption/redemption-support';
import { uniqueEmail } from '../support/accounts';
import { waitForQuiet } from '../support/quiet';
import type { System } from '../support/system';
import { sql, startAdminSystem } from './admin-support';

const BOSS = uniqueEmail('boss');
const OPS = uniqueEmail('ops');

/**
 * A reservation the eSIM side never received: esim's consumer keeps failing on it (a database fault
 * injected into esim) until it is dead-lettered, so the redemption stays `processing` with its
 * points reserved. Resolved from the operator queue, esim records the redemption from rewards'
 * facts, once; the dead letter replayed afterwards changes nothing.
 */
describe('a reservation esim never received', () => {
  let sys: System;
  let boss: Redeemer;
  let ops: Redeemer;
  let ana: Redeemer;

  beforeAll(async () => {
    sys = await startAdminSystem(`${BOSS},${OPS}`, { gatewayEnv: { REDEEM_WAIT_MS: '1500' } });
    [boss, ops, ana] = await Promise.all([signUpRedeemer(sys, { email: BOSS }), signUpRedeemer(sys, { email: OPS }), signUpRedeemer(sys, { name: 'Ana' })]);
    expect((await ana.client.patch('/api/user/settings', { locale: 'es' })).status).toBe(200);
  });
  afterAll(() => sys?.stop());

  const esim = () => sys.ns.schema('esim');
  const deadLetters = async () =>
    ((await boss.client.get('/api/admin/dead-letters')).json() as DeadLettersResponse).queues.find((q) => q.service === 'esim')!;
  /** esim's database refuses points redemptions until allowPoints(): each test sets up its own fault. */
  const refusePoints = () =>
    sql(`
      CREATE OR REPLACE FUNCTION "${esim()}".refuse_points() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'esim database read-only'; END $$;
      CREATE TRIGGER refuse_points BEFORE INSERT ON "${esim()}".provisionings FOR EACH ROW WHEN (NEW.source = 'points') EXECUTE FUNCTION "${esim()}".refuse_points();`);
  const allowPoints = () => sql(`DROP TRIGGER IF EXISTS refuse_points ON "${esim()}".provisionings`);

  it('is refunded once from rewards\' facts, and its dead letter replayed later changes nothing', async () => {
    const lettersBefore = (await deadLetters()).count;
    await refusePoints();
    await credit(sys, ana.id, 1000);
    const res = await redeem(ana.client, newEsim('1GB', 'BR'));
    expect(res.json()).toMatchObject({ status: 'processing' });
    const id = res.json().redemptionId as string;
    await waitFor(async () => (await deadLetters()).count === lettersBefore + 1, { what: 'PointsReserved dead-lettered in esim', timeoutMs: 60_000 });
    await allowPoints();
    expect(await redemptionRow(sys, id)).toMatchObject({ status: 'processing' });
    const before = await ledgerBalance(sys, ana.id);

    const mails = sys.mail.messages.length;
    const answers = await Promise.all([boss, ops].map((a) => a.client.post(`/api/admin/operator-queue/redemption/${id}/refund`)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    await waitFor(async () => (await redemptionRow(sys, id))?.status === 'failed', { what: 'the redemption released' });
    expect(await ledgerBalance(sys, ana.id)).toBe(before + 1000);
    expect(await transfersOf(sys, id)).toEqual([
      { kind: 'reservation', amount: 1000 },
      { kind: 'release', amount: 1000 },
    ]);
    await sys.mail.waitForMail(ana.email, { after: mails });

    // The lost event, replayed now that esim works again: the redemption is already settled there.
    const letter = (await deadLetters()).messages.find((m) => m.payloadSummary.redemptionId === id)!;
    const stats = sys.apps.esim!.get(EventConsumer).stats;
    const settled = () => stats.applied + stats.duplicates;
    const handled = settled();
    expect((await boss.client.post(`/api/admin/dead-letters/esim/${letter.messageId}/replay`)).status).toBe(200);
    // esim handles the replay without failing, and whatever it might have set off has run its course.
    await waitFor(() => settled() > handled, { what: 'esim to handle the replayed event' });
    await waitForQuiet(sys, 'every event and email on its way after the replay');
    expect(await sql(`SELECT status FROM "${esim()}".provisionings WHERE redemption_id = $1`, [id])).toEqual([{ status: 'refused' }]);
    expect(await transfersOf(sys, id)).toHaveLength(2);
    expect(sys.mail.mailsTo(ana.email).slice(-1)[0].subject).toBe(es.pointsReturned.subject.replace('{{points}}', '1000'));
    expect(sys.mail.messages.slice(mails).filter((m) => m.to.includes(ana.email.toLowerCase()))).toHaveLength(1);
    await expectLedgerSound(sys);
  });

  it('sends a stuck reservation to esim again on retry, once a minute however many admins click', async () => {
    const lettersBefore = (await deadLetters()).count;
    await refusePoints();
    await credit(sys, ana.id, 1000);
    const res = await redeem(ana.client, newEsim('1GB', 'US'));
    const id = res.json().redemptionId as string;
    await waitFor(async () => (await deadLetters()).count === lettersBefore + 1, { what: 'PointsReserved dead-lettered in esim', timeoutMs: 60_000 });
    await allowPoints();

    const answers = await Promise.all([boss, ops].map((a) => a.client.post(`/api/admin/operator-queue/redemption/${id}/retry`)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(answers.find((a) => a.status === 409)!.json().reason).toBe('retry_in_progress');
    await waitFor(async () => (await redemptionRow(sys, id))?.status === 'esim_activation_ready', { what: 'the retried redemption delivered' });
    expect(await transfersOf(sys, id)).toEqual([
      { kind: 'reservation', amount: 1000 },
      { kind: 'redemption', amount: 1000 },
    ]);
    await expectLedgerSound(sys);
  });
});
