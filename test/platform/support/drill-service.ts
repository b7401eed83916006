/**
 * The drill service, run as its own process by broker-drops.e2e-spec.ts:
 *   node -r libs/testing/ts-register.cjs test/platform/support/drill-service.ts
 * Configured by the environment like every service. An unhandled rejection or uncaught exception
 * ends it with exit code 70, as Node's default would, after telling the test why.
 */
import 'reflect-metadata';
import { Controller, DynamicModule, Module } from '@nestjs/common';
import { MigrationInterface, QueryRunner } from 'typeorm';
import type { EventEnvelope, EventPayload, RpcRequest } from '@esim/contracts';
import { EventConsumer, EventHandler, loadConfig, platformConfigSchema, PlatformConfig, RpcHandler, ServicePlatformModule, startService, Tx } from '@esim/platform';
import { DrillMessage, DrillPort, Echo, Pinged, Ponged } from './drill-contract';

for (const event of ['unhandledRejection', 'uncaughtException'] as const) {
  process.on(event, (err: unknown) => {
    send({ type: 'fatal', event, message: err instanceof Error ? (err.stack ?? err.message) : String(err) });
    process.exit(70);
  });
}

function send(message: DrillMessage): void {
  if (process.connected) process.send?.(message);
}

class DrillEffects1732069100000 implements MigrationInterface {
  async up(q: QueryRunner) {
    await q.query('CREATE TABLE drill_effects (id bigserial PRIMARY KEY, event_id uuid NOT NULL, kind text NOT NULL, n integer NOT NULL)');
  }
  async down(q: QueryRunner) {
    await q.query('DROP TABLE drill_effects');
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

@EventHandler(Pinged)
class PingedEventHandler implements EventHandler<typeof Pinged> {
  async handle({ n }: EventPayload<typeof Pinged>, tx: Tx, envelope: EventEnvelope): Promise<void> {
    await tx.manager.query(`INSERT INTO drill_effects (event_id, kind, n) VALUES ($1, 'ping', $2)`, [envelope.id, n]);
    await sleep(2); // some work: widens the window in which a drop catches a delivery in hand
    tx.publish(Ponged, { n });
  }
}

@EventHandler(Ponged)
class PongedEventHandler implements EventHandler<typeof Ponged> {
  async handle({ n }: EventPayload<typeof Ponged>, tx: Tx, envelope: EventEnvelope): Promise<void> {
    await tx.manager.query(`INSERT INTO drill_effects (event_id, kind, n) VALUES ($1, 'pong', $2)`, [envelope.id, n]);
  }
}

@Controller()
class EchoRpcHandler {
  @RpcHandler(Echo)
  async echo({ n }: RpcRequest<typeof Echo>) {
    return { n };
  }
}

@Module({})
class DrillModule {
  static register(config: PlatformConfig): DynamicModule {
    return {
      module: DrillModule,
      imports: [ServicePlatformModule.forService({ name: 'drill', port: DrillPort, config, migrations: [DrillEffects1732069100000] })],
      controllers: [EchoRpcHandler],
      providers: [PingedEventHandler, PongedEventHandler],
    };
  }
}

async function main(): Promise<void> {
  const config = loadConfig(platformConfigSchema, process.env);
  const app = await startService({ name: 'drill', module: DrillModule.register(config), config, port: 0 });
  process.on('message', (m: unknown) => {
    if (m === 'stats') send({ type: 'stats', stats: { ...app.get(EventConsumer).stats } });
    if (m === 'stop') void app.close().then(() => process.exit(0));
  });
  process.on('disconnect', () => void app.close().finally(() => process.exit(0)));
  send({ type: 'ready' });
}

void main().catch((err: unknown) => {
  send({ type: 'fatal', event: 'start', message: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  process.exit(1);
});
