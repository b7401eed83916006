import { Controller, Get, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { SANDBOX_STRIPE_BASE_PATH } from '@esim/contracts';
import { StripeEmulatorService } from './stripe-emulator.service';

/**
 * The Stripe emulator's publishable-key API for browsers, at PUBLIC_URL/sandbox/stripe/v1/… (the
 * gateway proxies it here): what the sandbox card form calls instead of Stripe.js (retrieve an
 * intent with its client secret, confirm it with a test card). Secret keys are refused on this path.
 */
@Controller('sandbox/stripe')
export class StripeBrowserController {
  constructor(private readonly emulator: StripeEmulatorService) {}

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
    const answer = await this.emulator.handle({
      method,
      path: req.path.slice(SANDBOX_STRIPE_BASE_PATH.length),
      params: { ...(req.query as Record<string, unknown>), ...body },
      authorization: req.headers.authorization ?? null,
      idempotencyKey: null,
      via: 'browser',
    });
    res.status(answer.httpStatus).set('Cache-Control', 'no-store').json(answer.body);
  }
}
