import pino, { Logger } from 'pino';
import { RequestContext } from '../context/request-context';

/** Words whose values never reach a log line. */
export const REDACTED_PATHS = [
  'password', 'newPassword', 'currentPassword', 'code', 'token', 'secret',
  '*.password', '*.newPassword', '*.currentPassword', '*.code', '*.token', '*.secret',
  'req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]',
];

/** One JSON logger per process; every line carries the service name and the correlation id. */
export function createLogger(service: string, level: string): Logger {
  return pino({
    level,
    base: { service },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
    mixin() {
      const ctx = RequestContext.current();
      return ctx ? { correlationId: ctx.correlationId, ...(ctx.userId ? { userId: ctx.userId } : {}) } : {};
    },
  });
}
