import { Controller, Post, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { PaymentsRpc } from '@esim/contracts';
import { RpcClient } from '@esim/platform';
import type { RawBodyRequest } from '../http/body-parsers';

/**
 * `POST /webhooks/stripe`: Stripe's webhook deliveries, passed to payments exactly as received
 * (the raw body the signature covers, and the Stripe-Signature header); Stripe gets payments'
 * answer. No session, no CSRF check: the signature is the authentication.
 */
@Controller('webhooks')
export class StripeWebhookController {
  constructor(private readonly rpc: RpcClient) {}

  @Post('stripe')
  async receive(@Req() req: RawBodyRequest, @Res({ passthrough: true }) res: Response): Promise<unknown> {
    const signature = req.headers['stripe-signature'];
    const answer = await this.rpc.call(PaymentsRpc.ingestStripeWebhook, {
      payload: req.rawBody ? req.rawBody.toString('utf8') : '',
      signature: typeof signature === 'string' ? signature : null,
    });
    res.status(answer.httpStatus);
    return answer.body;
  }
}
