import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import { z } from 'zod';
import { defineEvent, EventEnvelope } from '@esim/contracts';
import { TEST_REDIS_URL, TestNamespace } from '@esim/testing';
import { RedisInbox } from './inbox';

const Happened = defineEvent('producer', 'happened', 1, z.object({}));

/** The gateway's inbox: no database, so one Redis key per applied event. */
describe('the Redis inbox', () => {
  const ns = new TestNamespace();
  let redis: Redis;
  let inbox: RedisInbox;
  const envelope = (): EventEnvelope => ({ id: randomUUID(), type: Happened.routingKey, occurredAt: new Date().toISOString(), correlationId: 'c', causationId: null, payload: {} });

  beforeAll(() => {
    redis = new Redis(TEST_REDIS_URL, { keyPrefix: `${ns.id}:` });
    inbox = new RedisInbox(redis, 3600);
  });
  afterAll(async () => {
    redis.disconnect();
    await ns.cleanup();
  });

  it('applies an event once: a redelivery is skipped', async () => {
    const e = envelope();
    let runs = 0;
    expect(await inbox.apply('gateway', e, async () => void runs++)).toBe(true);
    expect(await inbox.apply('gateway', e, async () => void runs++)).toBe(false);
    expect(runs).toBe(1);
    expect(await redis.ttl(`inbox:gateway:${e.id}`)).toBeGreaterThan(3500);
  });

  it('records nothing when the handler fails, so the redelivery applies it', async () => {
    const e = envelope();
    await expect(inbox.apply('gateway', e, async () => Promise.reject(new Error('redis hiccup')))).rejects.toThrow('redis hiccup');
    let runs = 0;
    expect(await inbox.apply('gateway', e, async () => void runs++)).toBe(true);
    expect(runs).toBe(1);
  });

  it('refuses a handler that publishes (there is no outbox) or touches a database, and records nothing', async () => {
    const e = envelope();
    await expect(inbox.apply('gateway', e, async (tx) => void tx.publish(Happened, {}))).rejects.toThrow('cannot publish events');
    await expect(inbox.apply('gateway', e, async (tx) => void (await tx.manager.query('SELECT 1')))).rejects.toThrow('no database');
    expect(await redis.exists(`inbox:gateway:${e.id}`)).toBe(0);
  });

  describe('a group (applyAll)', () => {
    /** Runs the group; answers what it said and the events `work` was given, by id. */
    const applyAll = async (group: EventEnvelope[]) => {
      const given: string[][] = [];
      const applied = await inbox.applyAll('gateway', group, async (_tx, fresh) => void given.push(fresh.map((e) => e.id)));
      return { applied, given };
    };

    it('applies a group once, in one run of the work, and a replayed group not at all', async () => {
      const group = [envelope(), envelope(), envelope()];
      expect(await applyAll(group)).toEqual({ applied: [true, true, true], given: [group.map((e) => e.id)] });
      for (const e of group) expect(await redis.ttl(`inbox:gateway:${e.id}`)).toBeGreaterThan(3500);

      expect(await applyAll(group)).toEqual({ applied: [false, false, false], given: [] });
      // Each event, delivered alone again, is a duplicate too.
      expect(await inbox.apply('gateway', group[1], async () => Promise.reject(new Error('applied again')))).toBe(false);
    });

    it('applies only the new events of a group that mixes them with applied ones, and an event twice in it once', async () => {
      const [before, alone, fresh] = [envelope(), envelope(), envelope()];
      await applyAll([before]);
      await inbox.apply('gateway', alone, async () => undefined);
      expect(await applyAll([before, fresh, alone, fresh])).toEqual({ applied: [false, true, false, false], given: [[fresh.id]] });
    });

    it('records nothing when the work fails or publishes, so the redelivery applies the whole group', async () => {
      const group = [envelope(), envelope()];
      await expect(inbox.applyAll('gateway', group, async () => Promise.reject(new Error('redis hiccup')))).rejects.toThrow('redis hiccup');
      await expect(inbox.applyAll('gateway', group, async (tx) => void tx.publish(Happened, {}))).rejects.toThrow('cannot publish events');
      expect(await redis.exists(...group.map((e) => `inbox:gateway:${e.id}`))).toBe(0);
      expect(await applyAll(group)).toEqual({ applied: [true, true], given: [group.map((e) => e.id)] });
    });

    it('keeps consumers apart: what one applied is new to another', async () => {
      const e = envelope();
      await applyAll([e]);
      expect(await inbox.applyAll('other', [e], async () => undefined)).toEqual([true]);
    });
  });
});
