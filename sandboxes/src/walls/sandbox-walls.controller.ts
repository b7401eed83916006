import { Body, Controller, Get, Param, Post, Query, Res, UseGuards } from '@nestjs/common';
import type { Response } from 'express';
import { z } from 'zod';
import {
  OFFERWALL_IDS,
  OfferwallId,
  sandboxCompleteFormSchema,
  sandboxReverseFormSchema,
  sandboxWallQuerySchema,
  WebhooksRpc,
} from '@esim/contracts';
import { RpcClient } from '@esim/platform';
import { ZodPipe } from '../common/zod.pipe';
import { AuthGuard } from '../sessions/auth.guard';

const providerSchema = z.enum(OFFERWALL_IDS);

/** The emulated wall is framed by our own /task page only, and runs no script. */
const WALL_CSP = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'self'; base-uri 'none'";

/**
 * The sandbox offer walls (the webhooks service's emulator), for the signed-in user (the RPCs' acting user): the wall page, and its
 * Complete and Reverse buttons, after which the emulator's server posts back to /webhooks like the
 * real provider would. Only walls without credentials exist here.
 */
@Controller('sandbox/offerwalls')
@UseGuards(AuthGuard)
export class SandboxWallsController {
  constructor(private readonly rpc: RpcClient) {}

  @Get(':provider')
  async page(
    @Param('provider', new ZodPipe(providerSchema)) provider: OfferwallId,
    @Query(new ZodPipe(sandboxWallQuerySchema)) query: z.infer<typeof sandboxWallQuerySchema>,
    @Res({ passthrough: true }) res: Response,
  ): Promise<string> {
    const { html } = await this.rpc.call(WebhooksRpc.sandboxWallPage, { provider, ...query });
    res.setHeader('Content-Security-Policy', WALL_CSP);
    res.setHeader('X-Frame-Options', 'SAMEORIGIN');
    res.setHeader('Cache-Control', 'no-store');
    res.type('html');
    return html;
  }

  @Post(':provider/complete')
  async complete(
    @Param('provider', new ZodPipe(providerSchema)) provider: OfferwallId,
    @Body(new ZodPipe(sandboxCompleteFormSchema)) form: z.infer<typeof sandboxCompleteFormSchema>,
    @Res() res: Response,
  ): Promise<void> {
    const { answer } = await this.rpc.call(WebhooksRpc.sandboxCompleteOffer, { provider, ...form });
    backToWall(res, provider, form.uid, answer.httpStatus === 200 ? 'completed' : 'refused');
  }

  @Post(':provider/reverse')
  async reverse(
    @Param('provider', new ZodPipe(providerSchema)) provider: OfferwallId,
    @Body(new ZodPipe(sandboxReverseFormSchema)) form: z.infer<typeof sandboxReverseFormSchema>,
    @Res() res: Response,
  ): Promise<void> {
    const { answer } = await this.rpc.call(WebhooksRpc.sandboxReverseOffer, { provider, ...form });
    backToWall(res, provider, form.uid, answer.httpStatus === 200 ? 'reversed' : 'refused');
  }
}

/** Post/redirect/get: reloading the wall never sends a postback again. */
function backToWall(res: Response, provider: OfferwallId, uidValue: string, notice: string): void {
  res.redirect(303, `/sandbox/offerwalls/${provider}?uid=${encodeURIComponent(uidValue)}&notice=${notice}`);
}
