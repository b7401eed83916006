import { InMemorySpanExporter, ReadableSpan } from '@opentelemetry/sdk-trace-base';

export type { ReadableSpan };
import { startTracing } from './tracing';

export interface InMemoryTracing {
  /** Every span ended so far, in the order they ended. */
  spans(): ReadableSpan[];
  stop(): Promise<void>;
}

/**
 * Tracing on, with spans kept in memory instead of exported: for tests that check which spans a
 * request made (the in-process test system runs every service in this process, so the spans of
 * each service are told apart by their tracer, named after the service). Not exported from the
 * package index, so that the SDK is only loaded where it is used.
 */
export function startInMemoryTracing(): InMemoryTracing {
  const exporter = new InMemorySpanExporter();
  const handle = startTracing({ service: 'test', exporter });
  if (!handle) throw new Error('tracing did not start');
  return {
    spans: () => exporter.getFinishedSpans(),
    stop: () => handle.shutdown(),
  };
}
