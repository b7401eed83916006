import { All, Controller, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { StripeEmulatorFaults } from './stripe-emulator-faults';
import { StripeEmulatorService } from './stripe-emulator.service';

/**
 * The Stripe emulator at Stripe's paths (`/v1/…`) on the sandboxes process: the address payments'
 * Stripe SDK is given in sandbox mode (SANDBOXES_URL, or STRIPE_API_HOST/PORT/PROTOCOL). It answers
 * the secret-key API; the browser's publishable-key calls come through the gateway instead
 * (stripe-browser.controller.ts).
 */
@Controller('v1')
export class StripeEmulatorController {
  constructor(
    private readonly emulator: StripeEmulatorService,
    private readonly faults: StripeEmulatorFaults,
  ) {}

  @All('*path')
  async handle(@Req() req: Request, @Res() res: Response): Promise<void> {
    // A test made Stripe fail (stripe-emulator-control.controller.ts): counted, answered 500, nothing done.
    if (this.faults.take(`${req.method} ${req.path}`)) {
      res.status(500).json({ error: { type: 'api_error', message: 'An unknown error occurred (emulated Stripe outage).' } });
      return;
    }
    const body = req.body !== null && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as Record<string, unknown>) : {};
    const answer = await this.emulator.handle({
      method: req.method,
      path: req.path,
      params: { ...(req.query as Record<string, unknown>), ...body },
      authorization: req.headers.authorization ?? null,
      idempotencyKey: header(req, 'idempotency-key'),
      via: 'api',
    });
    res.status(answer.httpStatus).set(answer.headers).json(answer.body);
  }
}

function header(req: Request, name: string): string | null {
  const value = req.headers[name];
  return typeof value === 'string' && value.length > 0 ? value.slice(0, 255) : null;
}
