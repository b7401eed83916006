import { Controller, Get, Inject, Param, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { isOfferwallId, RewardsRpc } from '@esim/contracts';
import { AppError, CONFIG, RpcClient } from '@esim/platform';
import type { GatewayConfig } from '../config';
import { postbackDelivery } from './postback-delivery';

/**
 * Offer-wall postbacks (`GET|POST /webhooks/offerwalls/:provider`): the raw request goes to
 * rewards, which verifies, records and applies it, and the provider gets the answer it expects.
 */
@Controller('webhooks/offerwalls')
export class PostbacksController {
  private readonly publicOrigin: string;

  constructor(
    private readonly rpc: RpcClient,
    @Inject(CONFIG) config: GatewayConfig,
  ) {
    this.publicOrigin = new URL(config.PUBLIC_URL).origin;
  }

  @Get(':provider')
  get(@Param('provider') provider: string, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<string> {
    return this.forward(provider, req, res);
  }

  @Post(':provider')
  post(@Param('provider') provider: string, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<string> {
    return this.forward(provider, req, res);
  }

  private async forward(provider: string, req: Request, res: Response): Promise<string> {
    if (!isOfferwallId(provider)) throw new AppError('not_found', 'Not found');
    const answer = await this.rpc.call(RewardsRpc.ingestPostback, postbackDelivery(provider, req, this.publicOrigin));
    res.status(answer.httpStatus).type('text/plain');
    return answer.body;
  }
}
