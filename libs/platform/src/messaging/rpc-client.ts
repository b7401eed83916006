import { Logger } from '@nestjs/common';
import { ClientProxy, ClientProxyFactory, Transport } from '@nestjs/microservices';
import { firstValueFrom, timeout, TimeoutError } from 'rxjs';
import type { RpcDefinition, RpcRequest, RpcResponse } from '@esim/contracts';
import { RequestContext } from '../context/request-context';
import { AppError } from '../errors/app-error';
import { MessagingNames, rpcQueueName } from './topology';

export interface RpcClientOptions extends MessagingNames {
  url: string;
  timeoutMs: number;
}

/**
 * Request/reply to other services over the Nest RMQ transport, always with a timeout. Errors
 * come back as AppError; a silent or unreachable service becomes a 503 the user can retry.
 */
export class RpcClient {
  private readonly log = new Logger('RpcClient');
  private readonly clients = new Map<string, ClientProxy>();

  constructor(private readonly opts: RpcClientOptions) {}

  async call<D extends RpcDefinition>(def: D, data: RpcRequest<D>, opts: { timeoutMs?: number } = {}): Promise<RpcResponse<D>> {
    const ctx = RequestContext.current();
    const message = { meta: { correlationId: ctx?.correlationId ?? RequestContext.correlationId(), userId: ctx?.userId }, data };
    try {
      const answer = await firstValueFrom(this.client(def.service).send(def.pattern, message).pipe(timeout(opts.timeoutMs ?? this.opts.timeoutMs)));
      return def.response.parse(answer) as RpcResponse<D>;
    } catch (err) {
      if (AppError.isShape(err)) throw AppError.fromShape(err);
      if (err instanceof TimeoutError) {
        this.log.error(`${def.pattern} timed out`);
        throw new AppError('unavailable', 'The service is taking too long to answer. Please try again in a moment.', { reason: 'rpc_timeout' });
      }
      this.log.error(`${def.pattern} failed: ${(err as Error)?.message ?? String(err)}`);
      throw new AppError('unavailable', 'The service is temporarily unavailable. Please try again in a moment.', { reason: 'rpc_failed' });
    }
  }

  async close(): Promise<void> {
    await Promise.all([...this.clients.values()].map((c) => c.close()));
    this.clients.clear();
  }

  private client(service: string): ClientProxy {
    let client = this.clients.get(service);
    if (!client) {
      client = ClientProxyFactory.create({
        transport: Transport.RMQ,
        options: { urls: [this.opts.url], queue: rpcQueueName(this.opts, service), queueOptions: { durable: true } },
      });
      this.clients.set(service, client);
    }
    return client;
  }
}
