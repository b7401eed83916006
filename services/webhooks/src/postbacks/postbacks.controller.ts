import { Controller, Get, Inject, Param, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { isOfferwallId, OfferwallId } from '@esim/contracts';
import { CONFIG, plainIpAddress } from '@esim/platform';
import type { WebhooksConfig } from '../config';
import { deliveryOf, PostbackDelivery } from './postback-delivery';
import { PostbackIngestion } from './postback-ingestion.service';

/**
 * Offer-wall postbacks (`GET|POST /webhooks/offerwalls/:provider`), called by the providers directly
 * or through the gateway's proxy on the public URL. The answer is the provider's own format. A
 * plain GET is usually answered before Express by PostbackFastPath, with the same delivery and answer.
 */
@Controller('webhooks/offerwalls')
export class PostbacksController {
  private readonly publicOrigin: string;

  constructor(
    private readonly ingestion: PostbackIngestion,
    @Inject(CONFIG) config: WebhooksConfig,
  ) {
    this.publicOrigin = new URL(config.PUBLIC_URL).origin;
  }

  @Get(':provider')
  get(@Param('provider') provider: string, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<string> {
    return this.receive(provider, req, res);
  }

  @Post(':provider')
  post(@Param('provider') provider: string, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<string> {
    return this.receive(provider, req, res);
  }

  private async receive(provider: string, req: Request, res: Response): Promise<string> {
    res.type('text/plain');
    if (!isOfferwallId(provider)) {
      res.status(404);
      return 'not_found';
    }
    const answer = await this.ingestion.ingest(this.delivery(provider, req));
    res.status(answer.httpStatus);
    return answer.body;
  }

  /**
   * The callback exactly as received: the full URL is PUBLIC_URL's origin followed by the request
   * target byte for byte (never rebuilt from the Host header); the source address follows
   * TRUST_PROXY, IPv4-mapped addresses written as IPv4.
   */
  private delivery(provider: OfferwallId, req: Request): PostbackDelivery {
    const body = req.body !== null && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as Record<string, unknown>) : null;
    return deliveryOf(provider, {
      method: req.method === 'POST' ? 'POST' : 'GET',
      fullUrl: `${this.publicOrigin}${req.originalUrl}`,
      query: req.query as PostbackDelivery['query'],
      body,
      rawHeaders: req.headers,
      sourceIp: plainIpAddress(req.ip ?? req.socket.remoteAddress ?? ''),
    });
  }
}
