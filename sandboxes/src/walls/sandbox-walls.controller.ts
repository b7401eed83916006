import { BadRequestException, Body, Controller, Get, Headers, Param, Post, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { z } from 'zod';
import {
  OFFERWALL_IDS,
  OfferwallId,
  SANDBOX_SIGNED_IN_USER_HEADER,
  sandboxCompleteFormSchema,
  sandboxReverseFormSchema,
  sandboxWallQuerySchema,
} from '@esim/contracts';
import { OfferwallEmulator } from './offerwall-emulator';

const providerSchema = z.enum(OFFERWALL_IDS);

/** The emulated wall is framed by our own /task page only, and runs no script. */
const WALL_CSP = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'self'; base-uri 'none'";

function parsed<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw new BadRequestException(result.error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; '));
  return result.data;
}

/**
 * The sandbox offer walls, at PUBLIC_URL/sandbox/offerwalls (the gateway proxies them here, saying
 * who is signed in): the wall page, and its Complete and Reverse buttons, after which the emulator's
 * server posts back to /webhooks like the real provider would. A wall opens only for the signed-in
 * user its uid belongs to.
 */
@Controller('sandbox/offerwalls')
export class SandboxWallsController {
  constructor(private readonly emulator: OfferwallEmulator) {}

  @Get(':provider')
  async page(
    @Param('provider') providerParam: string,
    @Query() queryParams: unknown,
    @Headers(SANDBOX_SIGNED_IN_USER_HEADER) userId: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ): Promise<string> {
    const provider = parsed(providerSchema, providerParam);
    const { notice, uid } = parsed(sandboxWallQuerySchema, queryParams);
    const html = await this.emulator.page({ provider, userId, uid }, notice);
    res.setHeader('Content-Security-Policy', WALL_CSP);
    res.setHeader('X-Frame-Options', 'SAMEORIGIN');
    res.setHeader('Cache-Control', 'no-store');
    res.type('html');
    return html;
  }

  @Post(':provider/complete')
  async complete(
    @Param('provider') providerParam: string,
    @Body() body: unknown,
    @Headers(SANDBOX_SIGNED_IN_USER_HEADER) userId: string | undefined,
    @Res() res: Response,
  ): Promise<void> {
    const provider = parsed(providerSchema, providerParam);
    const form = parsed(sandboxCompleteFormSchema, body);
    const { answer } = await this.emulator.complete({ provider, userId, uid: form.uid }, form.offerId);
    backToWall(res, provider, form.uid, answer.httpStatus === 200 ? 'completed' : 'refused');
  }

  @Post(':provider/reverse')
  async reverse(
    @Param('provider') providerParam: string,
    @Body() body: unknown,
    @Headers(SANDBOX_SIGNED_IN_USER_HEADER) userId: string | undefined,
    @Res() res: Response,
  ): Promise<void> {
    const provider = parsed(providerSchema, providerParam);
    const form = parsed(sandboxReverseFormSchema, body);
    const { answer } = await this.emulator.reverse({ provider, userId, uid: form.uid }, form.transactionId);
    backToWall(res, provider, form.uid, answer.httpStatus === 200 ? 'reversed' : 'refused');
  }
}

/** Post/redirect/get: reloading the wall never sends a postback again. */
function backToWall(res: Response, provider: OfferwallId, uidValue: string, notice: string): void {
  res.redirect(303, `/sandbox/offerwalls/${provider}?uid=${encodeURIComponent(uidValue)}&notice=${notice}`);
}
