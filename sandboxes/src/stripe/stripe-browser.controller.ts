import { Controller, Get, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { PaymentsRpc, SANDBOX_STRIPE_BASE_PATH } from '@esim/contracts';
import { RpcClient } from '@esim/platform';

/**
 * The Stripe emulator's publishable-key API for browsers, at PUBLIC_URL/sandbox/stripe/v1/…: what
 * the sandbox card form calls instead of Stripe.js (retrieve an intent with its client secret,
 * confirm it with a test card). Relayed to payments, which refuses secret keys on this path.
 */
@Controller('sandbox/stripe')
export class SandboxStripeController {
  constructor(private readonly rpc: RpcClient) {}

  @Get('v1/*path')
  get(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.relay('GET', req, res);
  }

  @Post('v1/*path')
  post(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.relay('POST', req, res);
  }

  private async relay(method: 'GET' | 'POST', req: Request, res: Response): Promise<void> {
    const body = req.body !== null && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as Record<string, unknown>) : {};
    const answer = await this.rpc.call(PaymentsRpc.sandboxStripe, {
      method,
      path: req.path.slice(SANDBOX_STRIPE_BASE_PATH.length),
      params: { ...(req.query as Record<string, unknown>), ...body },
      authorization: req.headers.authorization ?? null,
    });
    res.status(answer.httpStatus).set('Cache-Control', 'no-store').json(answer.body);
  }
}
