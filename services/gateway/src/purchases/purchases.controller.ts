import { Body, Controller, Get, HttpCode, Inject, Param, Post, Req, UseGuards } from '@nestjs/common';
import type { Request } from 'express';
import {
  ConfirmEsimPurchaseRequest,
  confirmEsimPurchaseRequestSchema,
  CreateEsimPaymentRequest,
  createEsimPaymentRequestSchema,
  CreateEsimPaymentResponse,
  EsimPurchase,
  PaymentConfig,
  PaymentsRpc,
  PURCHASE_CONFIRM_WAIT_LIMIT_MS,
  PurchaseConfirmation,
  PurchaseRefund,
  purchaseRefundRequestSchema,
} from '@esim/contracts';
import { CONFIG, RpcClient } from '@esim/platform';
import { ZodPipe } from '../common/zod.pipe';
import type { GatewayConfig } from '../config';
import { clientNetwork } from '../rate-limits/client-network';
import { RateLimits } from '../rate-limits/rate-limits';
import { AuthGuard, CurrentUserId } from '../sessions/auth.guard';

/**
 * Card purchases for the signed-in user (shapes: libs/contracts/src/http/purchases.http.ts). The
 * body names a plan and a country, never a price; payments does the rest.
 */
@Controller('api')
@UseGuards(AuthGuard)
export class PurchasesController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly limits: RateLimits,
    @Inject(CONFIG) private readonly config: GatewayConfig,
  ) {}

  @Post('create-esim-payment')
  @HttpCode(200)
  async create(
    @Body(new ZodPipe(createEsimPaymentRequestSchema)) body: CreateEsimPaymentRequest,
    @Req() req: Request,
    @CurrentUserId() userId: string,
  ): Promise<CreateEsimPaymentResponse> {
    // Each call creates a PaymentIntent at Stripe, whose write limit is the whole account's:
    // counted per user and per client network before anything is created.
    await this.limits.consume(req, ['paymentUser', userId], ['paymentIp', clientNetwork(req)]);
    return this.rpc.call(PaymentsRpc.createEsimPayment, body);
  }

  /** payments waits (boundedly) for the eSIM before answering: give it that long on top. */
  @Post('confirm-esim-purchase-by-intent')
  @HttpCode(200)
  confirm(@Body(new ZodPipe(confirmEsimPurchaseRequestSchema)) body: ConfirmEsimPurchaseRequest): Promise<PurchaseConfirmation> {
    return this.rpc.call(PaymentsRpc.confirmEsimPurchase, body, { timeoutMs: this.config.RPC_TIMEOUT_MS + PURCHASE_CONFIRM_WAIT_LIMIT_MS });
  }

  /** The caller's paid purchases, newest first (the /esims list). */
  @Get('esim-purchases')
  async list(): Promise<EsimPurchase[]> {
    return (await this.rpc.call(PaymentsRpc.listEsimPurchases, {})).purchases;
  }

  /**
   * A self-serve refund (docs/payments.md, "Refunds"): payments decides and does it, once. Each
   * attempt asks the eSIM provider and may call Stripe, so it counts against the payment limits.
   */
  @Post('esim-purchases/:id/refund')
  @HttpCode(200)
  async refund(@Param('id') id: string, @Req() req: Request, @CurrentUserId() userId: string): Promise<PurchaseRefund> {
    const body = new ZodPipe(purchaseRefundRequestSchema).transform({ purchaseId: id });
    await this.limits.consume(req, ['paymentUser', userId], ['paymentIp', clientNetwork(req)]);
    return this.rpc.call(PaymentsRpc.requestRefund, body);
  }

  @Get('payment-config')
  paymentConfig(): Promise<PaymentConfig> {
    return this.rpc.call(PaymentsRpc.paymentConfig, {});
  }
}
