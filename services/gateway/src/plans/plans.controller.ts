import { Controller, Get, Query } from '@nestjs/common';
import { currencyForCountry, PREPAID_PLANS, plansQuerySchema, type PlanPrice } from '@esim/contracts';
import { ZodPipe } from '../common/zod.pipe';

/**
 * `GET /api/plans` (libs/contracts/src/http/plans.http.ts): public, read by the landing page before
 * sign-up. The answer is the catalogue compiled into the gateway (no service call, no storage), so
 * it costs no more than a static file and is not rate limited.
 */
@Controller('api')
export class PlansController {
  @Get('plans')
  list(@Query(new ZodPipe(plansQuerySchema)) query: { country?: string }): PlanPrice[] {
    const currency = currencyForCountry(query.country);
    return PREPAID_PLANS.map((plan) => ({ id: plan.id, amountGB: plan.amountGB, priceCents: plan.prices[currency], currency }));
  }
}
