import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/** What travels with one unit of work: an HTTP request, an RPC call or an event delivery. */
export interface RequestContextData {
  correlationId: string;
  /** The event or message that caused this work, for causation chains. */
  causationId?: string;
  userId?: string;
}

const storage = new AsyncLocalStorage<RequestContextData>();

export const RequestContext = {
  run<T>(data: Partial<RequestContextData>, fn: () => T): T {
    return storage.run({ ...data, correlationId: data.correlationId ?? randomUUID() }, fn);
  },
  current(): RequestContextData | undefined {
    return storage.getStore();
  },
  correlationId(): string {
    return storage.getStore()?.correlationId ?? randomUUID();
  },
};
