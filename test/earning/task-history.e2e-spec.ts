import { randomUUID } from 'node:crypto';
import { AcceptedPostback, OfferwallPostbacksAccepted, type Task, type TaskPage } from '@esim/contracts';
import { waitFor } from '@esim/testing';
import { publishEvent } from '../live/live-support';
import type { SignedUpUser } from '../support/accounts';
import type { HttpClient } from '../support/http-client';
import { startSystem, System } from '../support/system';
import { callPostback, earningSettled, signedPostbackUrl, signUpEarner } from './earning-support';

/**
 * /history's missions a page at a time (`GET /api/tasks/history?cursor=&limit=`), and one kind per
 * task whatever the wall. Credits arrive in batches (one event, one completed_at for the batch), so
 * pages break inside a batch too; more credits land between two pages.
 */
describe('the task history, paged by cursor', () => {
  let sys: System;
  let client: HttpClient;
  let user: SignedUpUser;

  const credits = (n: number, points: (i: number) => number): AcceptedPostback[] =>
    Array.from({ length: n }, (_, i) => {
      const transactionId = `tx-${randomUUID()}`;
      return { deliveryId: randomUUID(), provider: 'cpx', action: 'credit', transactionId, creditTransactionId: transactionId, userId: user.id, points: points(i), taskType: 'offer_completion', kind: 'survey' };
    });
  const deliver = (postbacks: AcceptedPostback[]) => publishEvent(sys, OfferwallPostbacksAccepted, { postbacks, acceptedAt: new Date().toISOString() });
  const taskCount = async () => (await client.get('/api/tasks')).json().length as number;
  const page = async (query: string): Promise<TaskPage> => {
    const res = await client.get(`/api/tasks/history${query}`);
    expect(res.status).toBe(200);
    return res.json();
  };

  beforeAll(async () => {
    sys = await startSystem({ services: ['identity', 'rewards', 'esim', 'notifications', 'webhooks'], env: { CREDIT_HOLD_MIN_POINTS: '100000' } });
    client = sys.client();
    user = await signUpEarner(client, sys.mail, {}, sys);
  }, 120_000);
  afterAll(() => sys?.stop());

  it('pages newest first without a repeat or a gap while new credits arrive, and totals every task', async () => {
    await deliver(credits(30, (i) => 10 + i));
    await deliver(credits(15, (i) => 100 + i));
    await waitFor(async () => (await taskCount()) === 45, { what: 'the 45 credited tasks' });
    const before = await page('?limit=100');
    expect(before.items).toHaveLength(45);
    expect(before.nextCursor).toBeNull();

    const first = await page('?limit=20');
    expect(first.items.map((t) => t.id)).toEqual(before.items.slice(0, 20).map((t) => t.id));
    expect(first.nextCursor).toBe(first.items[19].id);

    // Five more credits while the person reads the first page.
    await deliver(credits(5, () => 1000));
    await waitFor(async () => (await taskCount()) === 50, { what: 'the 5 later credits' });

    const second = await page(`?limit=20&cursor=${first.nextCursor}`);
    const third = await page(`?limit=20&cursor=${second.nextCursor}`);
    expect(third.nextCursor).toBeNull();
    const paged = [...first.items, ...second.items, ...third.items].map((t) => t.id);
    expect(paged).toEqual(before.items.map((t) => t.id));
    expect(new Set(paged).size).toBe(45);

    // Newest first: by completion, the later batch ahead of the earlier one.
    const times = before.items.map((t) => t.completedAt);
    expect([...times].sort().reverse()).toEqual(times);
    expect(before.items.slice(0, 15).every((t) => t.pointsEarned >= 100)).toBe(true);

    // A fresh first page starts with what arrived meanwhile; the totals count every task, not the page.
    const fresh = await page('?limit=20');
    expect(fresh.items.slice(0, 5).map((t) => t.pointsEarned)).toEqual([1000, 1000, 1000, 1000, 1000]);
    const earned = [...before.items, ...fresh.items.slice(0, 5)].reduce((sum, t) => sum + t.pointsEarned, 0);
    expect(fresh.totals).toEqual({ earnedMb: earned, missions: 50, tasks: 50 });
  });

  it('refuses a cursor or a limit that is not one with a 400 (reason invalid_request), and answers only the signed-in user', async () => {
    for (const query of ['?cursor=abc', '?limit=0', '?limit=101', '?limit=many']) {
      const res = await client.get(`/api/tasks/history${query}`);
      expect(res.status).toBe(400);
      expect(res.json()).toMatchObject({ reason: 'invalid_request' });
    }
    expect((await sys.client().get('/api/tasks/history')).status).toBe(401);

    // Another user's task as the cursor reads as the start of this user's history, never theirs.
    const other = sys.client();
    await signUpEarner(other, sys.mail, {}, sys);
    const mine = await page('?limit=1');
    const theirs = await other.get(`/api/tasks/history?cursor=${mine.items[0].id}`);
    expect(theirs.json()).toMatchObject({ items: [], nextCursor: null, totals: { earnedMb: 0, missions: 0, tasks: 0 } });
  });

  it('gives the same offer one kind on every wall: an app install is an app install from RapidoReach, BitLabs, Lootably or Torox', async () => {
    const walls = ['rapidoreach', 'bitlabs', 'lootably', 'torox'] as const;
    const offer = { id: '4242', name: 'Install Puzzle Quest', category: 'app' as const, points: 70 };
    for (const wall of walls) {
      const url = signedPostbackUrl(sys, wall, { userId: user.id, transactionId: `tx-${randomUUID()}`, action: 'credit', offer, userIp: '198.51.100.4' });
      expect((await callPostback(url)).status).toBe(200);
    }
    await earningSettled(sys);
    const tasks: Task[] = (await page('?limit=100')).items.filter((t) => t.pointsEarned === 70);
    expect(Object.fromEntries(tasks.map((t) => [t.provider, [t.kind, t.taskType]]))).toEqual(
      Object.fromEntries(walls.map((w) => [w, ['app_install', 'app_install']])),
    );
  });
});
