import { Body, Controller, Get, HttpCode, Param, Post, Req, UseGuards } from '@nestjs/common';
import type { Request } from 'express';
import { z } from 'zod';
import { EsimRpc, RedeemRequest, redeemRequestSchema, RedemptionResponse, RedemptionRpc, RedemptionView } from '@esim/contracts';
import { AppError, RpcClient } from '@esim/platform';
import { CaptchaGuard } from '../captcha/captcha.guard';
import { ZodPipe } from '../common/zod.pipe';
import { AuthGuard, CurrentUserId } from '../sessions/auth.guard';
import { IccidLookups } from './iccid-lookups';
import { IdempotencyKey } from './idempotency-key.decorator';
import { RedemptionAnswers } from './redemption-answers';

const redemptionIdSchema = z.string().uuid('No such redemption.');

/**
 * The two calls of the claim page (docs/redemption.md): spend points, or claim an admin gift. Both
 * need the captcha mark and an Idempotency-Key, start the saga in the owning service, and wait a
 * bounded time for its outcome. The acting user travels as RpcMeta. A top-up is an ICCID lookup:
 * limited, and a refused one spends the captcha mark (IccidLookups).
 */
@Controller('api')
@UseGuards(AuthGuard)
export class RedeemController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly answers: RedemptionAnswers,
    private readonly lookups: IccidLookups,
  ) {}

  @Post('redeem-points')
  @HttpCode(200)
  @UseGuards(CaptchaGuard)
  async redeemPoints(
    @Req() req: Request,
    @CurrentUserId() userId: string,
    @IdempotencyKey() idempotencyKey: string,
    @Body(new ZodPipe(redeemRequestSchema)) body: RedeemRequest,
  ): Promise<RedemptionResponse> {
    this.answers.noteIccid(body.iccid);
    return this.lookups.run(req, userId, body, async () => {
      const view = await this.rpc.call(RedemptionRpc.redeemPoints, { idempotencyKey, request: body });
      return this.answers.answer(await this.answers.awaitOutcome(view, (redemptionId) => this.rpc.call(RedemptionRpc.getRedemption, { redemptionId })));
    });
  }

  @Post('gift-data')
  @HttpCode(200)
  @UseGuards(CaptchaGuard)
  async giftData(
    @Req() req: Request,
    @CurrentUserId() userId: string,
    @IdempotencyKey() idempotencyKey: string,
    @Body(new ZodPipe(redeemRequestSchema)) body: RedeemRequest,
  ): Promise<RedemptionResponse> {
    this.answers.noteIccid(body.iccid);
    return this.lookups.run(req, userId, body, async () => {
      const view = await this.rpc.call(EsimRpc.claimGift, { idempotencyKey, request: body });
      return this.answers.answer(await this.answers.awaitOutcome(view, (redemptionId) => this.rpc.call(EsimRpc.getGiftClaim, { redemptionId })));
    });
  }

  /** One of the user's redemptions (points or gift), whatever its status: for a `processing` answer's follow-up. */
  @Get('redemptions/:id')
  async redemption(@Param('id', new ZodPipe(redemptionIdSchema)) redemptionId: string): Promise<RedemptionResponse> {
    let view: RedemptionView;
    try {
      view = await this.rpc.call(RedemptionRpc.getRedemption, { redemptionId });
    } catch (err) {
      if (!(err instanceof AppError && err.code === 'not_found')) throw err;
      view = await this.rpc.call(EsimRpc.getGiftClaim, { redemptionId });
    }
    return this.answers.describe(view);
  }
}
