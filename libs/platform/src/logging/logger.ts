import pino, { DestinationStream, Logger } from 'pino';
import pretty from 'pino-pretty';
import { RequestContext } from '../context/request-context';
import { currentTraceIds } from '../observability/tracing';

/** Words whose values never reach a log line. */
export const REDACTED_PATHS = [
  'password', 'newPassword', 'currentPassword', 'code', 'token', 'secret',
  '*.password', '*.newPassword', '*.currentPassword', '*.code', '*.token', '*.secret',
  'req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]',
];

export type LogFormat = 'auto' | 'json' | 'pretty';

/**
 * Readable lines for a person at a terminal, JSON for everything else (log collectors, files,
 * pipes). `auto` decides by whether stdout is a terminal; production is always JSON.
 */
export function resolveLogFormat(format: LogFormat = 'auto', env: { NODE_ENV?: string } = process.env, isTTY = process.stdout.isTTY === true): 'json' | 'pretty' {
  if (format !== 'auto') return format;
  return isTTY && env.NODE_ENV !== 'production' ? 'pretty' : 'json';
}

/** pino-pretty as a synchronous stream: one line each, coloured, the context before the message. */
export function prettyStream(destination: NodeJS.WritableStream = process.stdout): DestinationStream {
  return pretty({
    destination,
    colorize: true,
    // The service name is already the line prefix of `npm start`.
    ignore: 'pid,hostname,service,context',
    translateTime: 'SYS:HH:MM:ss.l',
    messageFormat: '{if context}[{context}] {end}{msg}',
    singleLine: true,
    sync: true,
  });
}

/** One logger per process; every line carries the service name and the correlation id. */
export function createLogger(service: string, level: string, format: LogFormat = 'auto', destination?: DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level,
    base: { service },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
    mixin() {
      const ctx = RequestContext.current();
      // With tracing on, the trace beside the correlation id: a log line leads to its trace and back.
      const ids = currentTraceIds();
      return {
        ...(ctx ? { correlationId: ctx.correlationId, ...(ctx.userId ? { userId: ctx.userId } : {}) } : {}),
        ...(ids ? { traceId: ids.traceId, spanId: ids.spanId } : {}),
      };
    },
  };
  if (resolveLogFormat(format) === 'pretty') return pino(options, prettyStream());
  return destination ? pino(options, destination) : pino(options);
}
