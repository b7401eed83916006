import { Controller, HttpCode, Post, Query, Req } from '@nestjs/common';
import type { Request } from 'express';
import { MarketingRpc, unsubscribeQuerySchema } from '@esim/contracts';
import { RpcClient } from '@esim/platform';
import { ZodPipe } from '../common/zod.pipe';
import { clientNetwork } from '../rate-limits/client-network';
import { RateLimits } from '../rate-limits/rate-limits';

/**
 * One-click unsubscribe from promotional email (docs/accounts.md, "What each switch governs"):
 * the URL of the email's `List-Unsubscribe` header, which a mail client POSTs to with the form
 * body `List-Unsubscribe=One-Click` (RFC 8058), and the unsubscribe page's button. The token in
 * the URL is the credential (identity signed it); the body is not read. Public, so counted per
 * client network (RATE_LIMIT_UNSUBSCRIBE_IP).
 */
@Controller('api/mail')
export class UnsubscribeController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly limits: RateLimits,
  ) {}

  @Post('unsubscribe')
  @HttpCode(200)
  async unsubscribe(
    @Req() req: Request,
    @Query(new ZodPipe(unsubscribeQuerySchema)) query: { token: string },
  ): Promise<{ unsubscribed: true }> {
    await this.limits.consume(req, ['unsubscribeIp', clientNetwork(req)]);
    return this.rpc.call(MarketingRpc.unsubscribe, { token: query.token });
  }
}
