import { ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import amqplib from 'amqplib';
import { Client } from 'pg';
import type { EventEnvelope } from '@esim/contracts';
import { RpcClient } from '@esim/platform';
import { TEST_AMQP_URL, TEST_DATABASE_URL, TcpProxy, TestNamespace, waitFor } from '@esim/testing';
import { DrillMessage, Echo, Pinged } from './support/drill-contract';

const root = path.resolve(__dirname, '../..');
const CUTS = 5;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The broker-drop drill (issue 8, fault 1). A service on the real platform runs in its own
 * process and reaches RabbitMQ through a TCP proxy; while events flow into it and RPCs are
 * called, the test cuts and restores its link several times. Every event must take effect
 * exactly once, and the process must never exit: before the fix, an ack on the closed channel
 * threw and the unhandled rejection ended the process (and start-all then stopped everything).
 */
describe('a service under broker drops', () => {
  const ns = new TestNamespace();
  const names = { exchange: `${ns.id}.events`, queuePrefix: `${ns.id}.` };
  const schema = ns.schema('drill');
  let proxy: TcpProxy;
  let child: ChildProcess;
  const exits: { code: number | null; signal: string | null }[] = [];
  const fatal: string[] = [];
  let stderr = '';
  let nextStats: ((s: Extract<DrillMessage, { type: 'stats' }>['stats']) => void) | undefined;
  let db: Client;

  beforeAll(async () => {
    const amqpUrl = new URL(TEST_AMQP_URL);
    proxy = await new TcpProxy(amqpUrl.hostname, Number(amqpUrl.port || 5672)).start();
    amqpUrl.hostname = '127.0.0.1';
    amqpUrl.port = String(proxy.port);

    child = spawn(process.execPath, ['-r', path.join(root, 'libs/testing/ts-register.cjs'), path.join(__dirname, 'support/drill-service.ts')], {
      cwd: root,
      env: { ...process.env, ...ns.env('drill', { AMQP_URL: amqpUrl.toString(), EVENT_DELIVERY_LIMIT: '5', RPC_TIMEOUT_MS: '1500' }) } as NodeJS.ProcessEnv,
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    child.on('exit', (code, signal) => exits.push({ code, signal }));
    const ready = new Promise<void>((resolve) => {
      child.on('message', (m: DrillMessage) => {
        if (m.type === 'ready') resolve();
        if (m.type === 'fatal') fatal.push(`${m.event}: ${m.message}`);
        if (m.type === 'stats') nextStats?.(m.stats);
      });
    });
    await waitFor(async () => exits.length > 0 || (await Promise.race([ready.then(() => true), sleep(100).then(() => false)])), {
      timeoutMs: 30_000,
      what: 'the drill service to start',
    });
    if (exits.length > 0) throw new Error(`the drill service did not start: ${fatal.join('\n')}\n${stderr}`);

    db = new Client({ connectionString: TEST_DATABASE_URL });
    await db.connect();
  });

  afterAll(async () => {
    if (child && child.exitCode === null) {
      child.send('stop');
      await new Promise((r) => child.once('exit', r));
    }
    await db?.end();
    await proxy?.stop();
    await ns.cleanup([`${ns.id}.drill.events`, `${ns.id}.drill.events.dlq`, `${ns.id}.drill.rpc`]);
  });

  const stats = () =>
    new Promise<Extract<DrillMessage, { type: 'stats' }>['stats']>((resolve) => {
      nextStats = resolve;
      child.send('stats');
    });
  const count = async (sql: string) => (await db.query<{ c: number }>(sql)).rows[0].c;

  it(`applies every event exactly once and keeps running through ${CUTS} cuts of its broker link under load`, async () => {
    const conn = await amqplib.connect(TEST_AMQP_URL); // the test's own link is never cut
    const ch = await conn.createConfirmChannel();
    let returned = 0;
    ch.on('return', () => returned++);
    const rpc = new RpcClient({ ...names, url: TEST_AMQP_URL, timeoutMs: 1500 });

    let running = true;
    let sent = 0;
    const rpcCalls = { answered: 0, unavailable: 0 };
    const producer = (async () => {
      while (running) {
        for (let i = 0; i < 20; i++) {
          const envelope: EventEnvelope = {
            id: randomUUID(),
            type: Pinged.routingKey,
            occurredAt: new Date().toISOString(),
            correlationId: randomUUID(),
            causationId: null,
            payload: { n: ++sent },
          };
          ch.publish(names.exchange, Pinged.routingKey, Buffer.from(JSON.stringify(envelope)), { persistent: true, mandatory: true, messageId: envelope.id });
        }
        await ch.waitForConfirms();
        await sleep(30);
      }
    })();
    const caller = (async () => {
      for (let n = 0; running; n++) {
        try {
          expect(await rpc.call(Echo, { n })).toEqual({ n });
          rpcCalls.answered++;
        } catch {
          rpcCalls.unavailable++; // while the link is down: a 503 for the user, never a crash
        }
        await sleep(20);
      }
    })();

    for (let cut = 0; cut < CUTS; cut++) {
      await sleep(1500);
      await proxy.cut();
      await sleep(1000);
      await proxy.restore();
    }
    await sleep(1500);
    running = false;
    await Promise.all([producer, caller]);

    const effects = `"${schema}".drill_effects`;
    // Stops waiting as soon as the process is gone: that is the failure this drill exists for.
    // A deadline for liveness, not a speed figure: on a machine busy with other suites the backlog
    // of a few thousand events can take a minute to drain.
    await waitFor(async () => exits.length > 0 || (await count(`SELECT count(DISTINCT n)::int AS c FROM ${effects} WHERE kind = 'pong'`)) === sent, {
      timeoutMs: 150_000,
      intervalMs: 250,
      what: 'every event to be applied after the last restore',
    });
    expect({ exits, fatal: fatal.map((f) => f.split('\n')[0]) }).toEqual({ exits: [], fatal: [] });
    // Any late redelivery has arrived and been settled: the queue holds nothing ready and the
    // consumer has settled every delivery it received, in two reads in a row.
    let quietReads = 0;
    await waitFor(
      async () => {
        const { messageCount } = await ch.checkQueue(`${ns.id}.drill.events`);
        const s = await stats();
        quietReads = messageCount === 0 && s.received === s.applied + s.duplicates + s.failed ? quietReads + 1 : 0;
        return quietReads >= 2;
      },
      { what: 'the drill queue drained and every delivery settled', timeoutMs: 30_000 },
    );
    const pings = await count(`SELECT count(*)::int AS c FROM ${effects} WHERE kind = 'ping'`);
    const pongs = await count(`SELECT count(*)::int AS c FROM ${effects} WHERE kind = 'pong'`);
    const duplicates = await count(`SELECT count(*)::int AS c FROM (SELECT kind, n FROM ${effects} GROUP BY kind, n HAVING count(*) > 1) d`);
    const deadLettered = (await ch.checkQueue(`${ns.id}.drill.events.dlq`)).messageCount;
    const consumer = await stats();
    const answeredAfter = await rpc.call(Echo, { n: -1 });
    await rpc.close();
    await conn.close();

    console.log(
      [
        `broker-drop drill: ${CUTS} cuts of the service's broker link while events and RPCs flowed`,
        `  events sent ${sent}, applied ${pings} (and their follow-up events through the outbox: ${pongs}), duplicates ${duplicates}, dead-lettered ${deadLettered}, unroutable ${returned}`,
        `  consumer: ${consumer.received} deliveries received, ${consumer.applied} applied, ${consumer.duplicates} redeliveries of applied events skipped by the inbox, ${consumer.settlementsLost} acks/nacks lost with the link, ${consumer.failed} failed`,
        `  RPC: ${rpcCalls.answered} answered, ${rpcCalls.unavailable} answered 503 while the link was down`,
        `  process exits: ${exits.length}, unhandled rejections/exceptions: ${fatal.length}`,
      ].join('\n'),
    );

    expect(fatal).toEqual([]);
    expect(exits).toEqual([]);
    expect(child.exitCode).toBeNull();
    expect(sent).toBeGreaterThan(500);
    expect(returned).toBe(0);
    expect(pings).toBe(sent);
    expect(pongs).toBe(sent);
    expect(duplicates).toBe(0);
    expect(deadLettered).toBe(0);
    expect(consumer.applied).toBe(2 * sent);
    expect(rpcCalls.answered).toBeGreaterThan(0);
    expect(answeredAfter).toEqual({ n: -1 });
  }, 240_000);
});
