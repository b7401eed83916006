import { Body, Controller, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { z } from 'zod';
import { STRIPE_SANDBOX_SECRET_KEY } from '@esim/contracts';
import { StripeEmulatorFaults } from './stripe-emulator-faults';

const controlSchema = z
  .object({
    /** `fail`: every API call answers 500 until `ok`. */
    mode: z.enum(['ok', 'fail']).optional(),
    /** Fault off and request counts back to zero. */
    reset: z.boolean().optional(),
  })
  .strict();

/**
 * Test controls of the Stripe emulator (not part of Stripe's API): make its API fail, read how
 * many calls it received. Takes the sandbox secret key, as the emulated API does.
 */
@Controller('sandbox/stripe/_control')
export class StripeEmulatorControlController {
  constructor(private readonly faults: StripeEmulatorFaults) {}

  @Get()
  state(@Req() req: Request, @Res({ passthrough: true }) res: Response) {
    if (!authorized(req)) return unauthorized(res);
    return this.faults.state();
  }

  @Post()
  @HttpCode(200)
  control(@Req() req: Request, @Res({ passthrough: true }) res: Response, @Body() body: unknown) {
    if (!authorized(req)) return unauthorized(res);
    const parsed = controlSchema.safeParse(body ?? {});
    if (!parsed.success) {
      res.status(400);
      return { error: { type: 'invalid_request_error', message: parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ') } };
    }
    if (parsed.data.reset) this.faults.reset();
    if (parsed.data.mode) this.faults.set(parsed.data.mode);
    return this.faults.state();
  }
}

function authorized(req: Request): boolean {
  return req.header('authorization') === `Bearer ${STRIPE_SANDBOX_SECRET_KEY}`;
}

function unauthorized(res: Response) {
  res.status(401);
  return { error: { type: 'authentication_error', message: 'Invalid API Key provided.' } };
}
