import { Controller, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { STRIPE_WEBHOOK_PATH } from '@esim/contracts';
import { CONFIG, DATABASE_UNAVAILABLE, isDatabaseUnreachable, plainIpAddress } from '@esim/platform';
import type { WebhooksConfig } from '../config';
import { StripeWebhookIngestion } from './stripe-webhook-ingestion.service';

/**
 * `POST /webhooks/stripe`: Stripe's webhook deliveries, called directly or through the gateway's
 * proxy on the public URL. The body arrives as raw bytes (http/edge.ts): the signature covers
 * them exactly. No session, no CSRF check: the signature is the authentication.
 */
@Controller()
export class StripeWebhookController {
  private readonly publicOrigin: string;

  constructor(
    private readonly ingestion: StripeWebhookIngestion,
    @Inject(CONFIG) config: WebhooksConfig,
  ) {
    this.publicOrigin = new URL(config.PUBLIC_URL).origin;
  }

  @Post(STRIPE_WEBHOOK_PATH)
  @HttpCode(200)
  async receive(@Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<unknown> {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
    try {
      const answer = await this.ingestion.ingest({
        body: Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0),
        url: `${this.publicOrigin}${req.originalUrl}`,
        headers,
        sourceIp: plainIpAddress(req.ip ?? req.socket.remoteAddress ?? ''),
      });
      res.status(answer.httpStatus);
      return answer.body;
    } catch (err) {
      if (!isDatabaseUnreachable(err)) throw err;
      // Nothing was recorded: a 5xx makes Stripe deliver the event again later.
      res.status(503);
      return { error: { message: 'The service is temporarily unavailable.', reason: DATABASE_UNAVAILABLE } };
    }
  }
}
