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
});
