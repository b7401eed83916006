import { DynamicModule } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { LoggerModule } from 'nestjs-pino';
import { createLogger, LogFormat } from '../logging/logger';

/** nestjs-pino over the one logger, so Nest's own lines carry the correlation id too. */
export function loggingModule(service: string, level: string, opts: { logRequests?: boolean; format?: LogFormat } = {}): DynamicModule {
  return LoggerModule.forRoot({
    pinoHttp: {
      logger: createLogger(service, level, opts.format),
      autoLogging: opts.logRequests ?? false,
      genReqId: (req) => (req.headers['x-correlation-id'] as string | undefined) ?? randomUUID(),
      customProps: (req) => ({ correlationId: (req as { id?: unknown }).id }),
      quietReqLogger: true,
      // Query strings can carry secrets (a reset link's token): log the path only.
      serializers: {
        req: (req: { id?: unknown; method?: string; url?: string }) => ({ id: req.id, method: req.method, url: req.url?.split('?')[0] }),
        res: (res: { statusCode?: number }) => ({ statusCode: res.statusCode }),
      },
    },
  });
}
