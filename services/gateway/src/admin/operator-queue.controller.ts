import { Body, Controller, Get, HttpCode, Logger, Param, Post, UseGuards } from '@nestjs/common';
import { z } from 'zod';
import {
  EsimAdminRpc,
  IdentityAdminRpc,
  ManualDelivery,
  manualDeliverySchema,
  OperatorAction,
  operatorItemParamsSchema,
  OperatorQueueItem,
  OperatorQueueResponse,
  OperatorResolution,
  PaymentsAdminRpc,
  RewardsAdminRpc,
} from '@esim/contracts';
import { AppError, RpcClient } from '@esim/platform';
import { ZodPipe } from '../common/zod.pipe';
import { CurrentUserId } from '../sessions/auth.guard';
import { AdminAudit } from './admin-audit';
import { AdminGuard } from './admin.guard';

type ItemParams = z.infer<typeof operatorItemParamsSchema>;

/** Items read from each owner (oldest wait first). */
const PER_SOURCE = 200;

/**
 * The operator queue (docs/admin.md): every redemption, gift claim and card purchase that needs a
 * person, merged from their owners (esim: deliveries; rewards: reservations esim never received;
 * payments: paid purchases without an eSIM), and the three actions. Each action is exactly-once in
 * its owner (a row lock and a status check: the second of two admins gets a 409) and written to
 * the audit trail before it runs.
 */
@Controller('api/admin')
@UseGuards(AdminGuard)
export class OperatorQueueController {
  private readonly log = new Logger('OperatorQueue');

  constructor(
    private readonly rpc: RpcClient,
    private readonly audit: AdminAudit,
  ) {}

  @Get('operator-queue')
  async list(@CurrentUserId() adminId: string): Promise<OperatorQueueResponse> {
    const unavailable: string[] = [];
    const from = async (service: string, read: () => Promise<{ items: OperatorQueueItem[] }>) => {
      try {
        return (await read()).items;
      } catch (err) {
        this.log.warn(`operator queue: ${service} did not answer: ${(err as Error).message}`);
        unavailable.push(service);
        return [];
      }
    };
    const [deliveries, reservations, purchases] = await Promise.all([
      from('esim', () => this.rpc.call(EsimAdminRpc.listOperatorQueue, { limit: PER_SOURCE })),
      from('rewards', () => this.rpc.call(RewardsAdminRpc.listStuckRedemptions, { limit: PER_SOURCE })),
      from('payments', () => this.rpc.call(PaymentsAdminRpc.listOperatorQueue, { limit: PER_SOURCE })),
    ]);
    // A reservation esim holds a delivery for is esim's to show (or on its way): only the ones it never received stay.
    const known = reservations.length
      ? new Set((await this.rpc.call(EsimAdminRpc.provisioningStatuses, { redemptionIds: reservations.map((r) => r.id) })).statuses.map((s) => s.redemptionId))
      : new Set<string>();
    const items = [...deliveries, ...reservations.filter((r) => !known.has(r.id)), ...purchases].sort((a, b) => a.waitingSince.localeCompare(b.waitingSince));
    const userIds = [...new Set(items.map((i) => i.userId))];
    const users = userIds.length ? new Map((await this.rpc.call(IdentityAdminRpc.getUsers, { userIds })).users.map((u) => [u.id, u])) : new Map();
    this.audit.noteRead('operator_queue_viewed', adminId, { items: items.length });
    return {
      items: items.map((i) => {
        const u = users.get(i.userId);
        return { ...i, user: u ? { id: u.id, name: u.name, email: u.email } : null };
      }),
      unavailable,
    };
  }

  @HttpCode(200)
  @Post('operator-queue/:kind/:id/retry')
  retry(@CurrentUserId() adminId: string, @Param(new ZodPipe(operatorItemParamsSchema)) item: ItemParams): Promise<OperatorResolution> {
    return this.resolve(adminId, item, 'retry');
  }

  @HttpCode(200)
  @Post('operator-queue/:kind/:id/deliver')
  deliver(
    @CurrentUserId() adminId: string,
    @Param(new ZodPipe(operatorItemParamsSchema)) item: ItemParams,
    @Body(new ZodPipe(manualDeliverySchema)) delivery: ManualDelivery,
  ): Promise<OperatorResolution> {
    return this.resolve(adminId, item, 'deliver', delivery);
  }

  @HttpCode(200)
  @Post('operator-queue/:kind/:id/refund')
  refund(@CurrentUserId() adminId: string, @Param(new ZodPipe(operatorItemParamsSchema)) item: ItemParams): Promise<OperatorResolution> {
    return this.resolve(adminId, item, 'refund');
  }

  private resolve(adminId: string, item: ItemParams, action: OperatorAction, delivery?: ManualDelivery): Promise<OperatorResolution> {
    const details: Record<string, string> = delivery ? { iccid: delivery.iccid } : {};
    return this.audit.run(
      `operator_${action}`,
      adminId,
      { type: item.kind, id: item.id },
      details,
      () => this.perform(item, action, delivery),
      (r) => `${r.status}${r.refundId ? ` (${r.refundId})` : ''}`,
    );
  }

  private async perform(item: ItemParams, action: OperatorAction, delivery?: ManualDelivery): Promise<OperatorResolution> {
    if (item.kind === 'purchase') return this.rpc.call(PaymentsAdminRpc.resolvePurchase, { purchaseId: item.id, action, ...delivery }, { timeoutMs: 30_000 });
    if (item.kind === 'gift-claim') return this.rpc.call(EsimAdminRpc.resolveRedemption, { redemptionId: item.id, source: 'gift', action, ...delivery });
    // A points redemption: esim's delivery when it has one; otherwise rewards' reservation that never reached esim.
    const { statuses } = await this.rpc.call(EsimAdminRpc.provisioningStatuses, { redemptionIds: [item.id] });
    if (statuses.length > 0) return this.rpc.call(EsimAdminRpc.resolveRedemption, { redemptionId: item.id, source: 'points', action, ...delivery });
    if (action === 'retry') {
      const r = await this.rpc.call(RewardsAdminRpc.retryRedemption, { redemptionId: item.id });
      return { kind: 'redemption', id: item.id, action, status: r.status, message: 'The reservation was sent to the eSIM side again.', refundId: null, resolvedAt: r.retriedAt };
    }
    const facts = await this.rpc.call(RewardsAdminRpc.getRedemptionFacts, { redemptionId: item.id });
    if (facts.status !== 'processing') throw new AppError('already_resolved', `This redemption is ${facts.status}: nothing to resolve.`, { details: { status: facts.status } });
    return this.rpc.call(EsimAdminRpc.resolveRedemption, { redemptionId: item.id, source: 'points', action, ...delivery, facts });
  }
}
