import type { INestApplication } from '@nestjs/common';
import express, { type Express, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { STRIPE_WEBHOOK_PATH } from '@esim/contracts';
import type { WebhooksConfig } from '../config';

/** Answers a callback that cannot be read: plain text, as providers log it. */
function refuse(res: Response, status: number, body: string): void {
  res.status(status).type('text/plain').send(body);
}

/** Body parsing for callbacks: forms and JSON up to BODY_LIMIT; anything unreadable is a clear 4xx. */
function guarded(parser: RequestHandler): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) =>
    parser(req, res, (err?: unknown) => {
      if (!err) return next();
      // Already answered: the door cut off a body that came too slowly (ProviderDoor).
      if (res.headersSent) return;
      const type = (err as { type?: string }).type;
      if (type === 'entity.too.large') return refuse(res, 413, 'payload_too_large');
      if (type === 'charset.unsupported' || type === 'encoding.unsupported') return refuse(res, 415, 'unsupported_media_type');
      return refuse(res, 400, 'rejected_invalid');
    });
}

/**
 * The ingestion service's HTTP edge: whose X-Forwarded-For counts (TRUST_PROXY; by default the
 * gateway on the same host, which forwards the provider address it resolved itself), and body
 * parsing with a limit for /webhooks. Stripe's deliveries are kept as the raw bytes, whatever their
 * content type: its signature covers them exactly (the parsers after it then find the body read).
 */
export function configureEdge(app: INestApplication, config: WebhooksConfig): void {
  const http = app.getHttpAdapter().getInstance() as Express;
  http.disable('x-powered-by');
  const trust = config.TRUST_PROXY;
  http.set('trust proxy', trust === 'false' ? false : /^\d+$/.test(trust) ? Number(trust) : trust.split(',').map((s) => s.trim()));
  http.use(STRIPE_WEBHOOK_PATH, guarded(express.raw({ limit: config.BODY_LIMIT, type: () => true })));
  http.use(
    '/webhooks',
    guarded(express.json({ limit: config.BODY_LIMIT, strict: true })),
    guarded(express.urlencoded({ limit: config.BODY_LIMIT, extended: false })),
  );
}
