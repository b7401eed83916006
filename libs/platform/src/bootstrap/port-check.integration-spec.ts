import { Controller, Module, Provider, Type } from '@nestjs/common';
import { z } from 'zod';
import { defineEvent, defineRpc, ServicePort } from '@esim/contracts';
import { TestNamespace } from '@esim/testing';
import { loadConfig } from '../config/load-config';
import { platformConfigSchema } from '../config/platform-config';
import { EventHandler } from '../messaging/event-handler';
import { RpcHandler } from '../messaging/rpc-handler.decorator';
import { EventConsumer } from '../messaging/event-consumer';
import { PortMismatchError } from './handler-discovery';
import { ServicePlatformModule } from './service-platform.module';
import { startService } from './start-service';

const Happened = defineEvent('checker', 'happened', 1, z.object({}));
const Forgotten = defineEvent('checker', 'forgotten', 1, z.object({}));
const Ask = defineRpc('checker', 'ask', z.object({}), z.object({}));
const Unanswered = defineRpc('checker', 'unanswered', z.object({}), z.object({}));

@EventHandler(Happened)
class HappenedEventHandler implements EventHandler<typeof Happened> {
  async handle(): Promise<void> {}
}

@Controller()
class AskRpcHandler {
  @RpcHandler(Ask)
  async ask() {
    return {};
  }
}

/** The start-up check of a service's handlers against its declared port, on a real (database-less) process. */
describe('the port check at start-up', () => {
  const ns = new TestNamespace();
  afterAll(() => ns.cleanup([`${ns.id}.checker.events`, `${ns.id}.checker.events.dlq`, `${ns.id}.checker.rpc`]));

  const start = (port: Omit<ServicePort, 'name'>, parts: { providers?: Provider[]; controllers?: Type[] }) => {
    const config = loadConfig(platformConfigSchema, ns.env('checker'));
    @Module({})
    class CheckerModule {}
    const module = { module: CheckerModule, imports: [ServicePlatformModule.forService({ name: 'checker', port: { name: 'checker', ...port }, config, database: false })], ...parts };
    return startService({ name: 'checker', module, config, port: 0 });
  };

  it('starts a service whose handlers are exactly its port, and consumes what it declares', async () => {
    const app = await start({ answers: [Ask], publishes: [], consumes: [Happened] }, { providers: [HappenedEventHandler], controllers: [AskRpcHandler] });
    expect(app.get(EventConsumer).eventTypes).toEqual(['checker.happened.v1']);
    await app.close();
  });

  it('refuses to start when a declared consumer has no handler, saying which and where to look', async () => {
    const started = start({ answers: [Ask], publishes: [], consumes: [Happened, Forgotten] }, { providers: [HappenedEventHandler], controllers: [AskRpcHandler] });
    await expect(started).rejects.toThrow(PortMismatchError);
    await expect(started).rejects.toThrow(
      'checker does not match its port (libs/contracts/src/ports/checker.port.ts):\n  - the port says it consumes checker.forgotten.v1, but no @EventHandler(…) class handles it',
    );
  });

  it('refuses a handler its port does not declare, and a declared RPC nobody answers', async () => {
    const started = start({ answers: [Ask, Unanswered], publishes: [], consumes: [] }, { providers: [HappenedEventHandler], controllers: [AskRpcHandler] });
    await expect(started).rejects.toThrow('HappenedEventHandler handle(s) checker.happened.v1, which the port does not list in consumes');
    await expect(started).rejects.toThrow('the port says it answers checker.unanswered, but no @RpcHandler(…) method does');
  });
});
