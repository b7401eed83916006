import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { MessagePattern, RpcException } from '@nestjs/microservices';
import { ZodError } from 'zod';
import { RpcDefinition, RpcMeta, rpcMetaSchema } from '@esim/contracts';
import { RequestContext } from '../context/request-context';
import { AppError, databaseUnavailable, validationError } from '../errors/app-error';
import { isDatabaseUnreachable } from '../persistence/postgres-errors';

const log = new Logger('RpcHandler');
const RPC_HANDLER = Symbol.for('esim:rpc-handler');

/** The RPC a method answers, when it is an @RpcHandler (the platform checks them against the port). */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export function answeredRpc(method: Function): RpcDefinition | undefined {
  return Reflect.getMetadata(RPC_HANDLER, method) as RpcDefinition | undefined;
}

/** What travels in one RPC message: who asks, and the validated request. */
export interface RpcMessage<T = unknown> {
  meta: RpcMeta;
  data: T;
}

/**
 * The acting user of an RPC: the signed-in user the gateway acts for, which travels as
 * `meta.userId` and never in the request (docs/architecture.md, "Naming rule"). 401 without one.
 */
export function actingUserId(meta: RpcMeta): string {
  if (!meta.userId) throw new AppError('sign_in_required', 'Please sign in to continue.');
  return meta.userId;
}

/** Turns anything thrown by a handler into the AppError shape the caller maps to HTTP. */
export function toRpcException(err: unknown): RpcException {
  if (err instanceof AppError) return new RpcException(err.toShape());
  if (err instanceof ZodError) return new RpcException(validationError(err.issues).toShape());
  // A database outage is the service's condition, not a fault of the request: the caller answers
  // 503 with a declared reason, and the same request succeeds once the database is back.
  if (isDatabaseUnreachable(err)) {
    log.warn(`the database is unreachable: ${(err as Error).message}`);
    return new RpcException(databaseUnavailable().toShape());
  }
  log.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
  return new RpcException(new AppError('internal_error', 'Something went wrong on our side. Please try again.').toShape());
}

/**
 * Marks a controller method as the answer to an RPC definition: the request is validated with
 * the definition's schema, the caller's correlation id and user id are restored for logging, and
 * errors cross the wire as AppError shapes. The method receives (data, meta).
 */
export function RpcHandler(def: RpcDefinition): MethodDecorator {
  return (target, key, descriptor: PropertyDescriptor) => {
    const original = descriptor.value as (data: unknown, meta: RpcMeta) => Promise<unknown>;
    descriptor.value = async function (this: unknown, message: RpcMessage) {
      const meta = rpcMetaSchema.safeParse(message?.meta);
      const context = meta.success ? meta.data : { correlationId: RequestContext.correlationId() };
      return RequestContext.run(context, async () => {
        try {
          const data = def.request.parse(message?.data);
          return await original.call(this, data, context);
        } catch (err) {
          throw toRpcException(err);
        }
      });
    };
    Object.defineProperty(descriptor.value, 'name', { value: original.name });
    Reflect.defineMetadata(RPC_HANDLER, def, descriptor.value as object);
    MessagePattern(def.pattern)(target, key, descriptor);
    return descriptor;
  };
}
