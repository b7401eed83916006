import { Body, Controller, Param, Post, UseGuards } from '@nestjs/common';
import { z } from 'zod';
import { AdminGiftResponse, adminGiftRequestSchema, EsimRpc, RecipientRpc } from '@esim/contracts';
import { AppError, RpcClient } from '@esim/platform';
import { AdminAudit } from './admin-audit';
import { AdminGuard } from './admin.guard';
import { ZodPipe } from '../common/zod.pipe';
import { CurrentUserId } from '../sessions/auth.guard';

const userNotFound = () => new AppError('user_not_found', 'User not found');

/** A user id that is not even a UUID names no user: the same 404 as an unknown one. */
class UserIdPipe {
  transform(value: unknown): string {
    const parsed = z.string().uuid().safeParse(value);
    if (!parsed.success) throw userNotFound();
    return parsed.data;
  }
}

/**
 * `POST /api/admin/gift-data/{userId} { planTier, iccid: 'admin-gifted' }`: grants the user a
 * claimable 1, 3 or 5 GB gift (esim), which emails them and shows on their dashboard until claimed.
 */
@Controller('api/admin')
@UseGuards(AdminGuard)
export class AdminGiftsController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly audit: AdminAudit,
  ) {}

  @Post('gift-data/:userId')
  async gift(
    @CurrentUserId() adminId: string,
    @Param('userId', new UserIdPipe()) userId: string,
    @Body(new ZodPipe(adminGiftRequestSchema)) { planTier }: z.infer<typeof adminGiftRequestSchema>,
  ): Promise<AdminGiftResponse> {
    try {
      await this.rpc.call(RecipientRpc.getRecipient, { recipientId: userId });
    } catch (err) {
      throw err instanceof AppError && err.code === 'not_found' ? userNotFound() : err;
    }
    // The admin is the RPCs' acting user (meta.userId); the user gifted is named as the recipient.
    // Written to the trail before it is granted, like every other admin action: a gift the trail
    // cannot record is not granted (503), so no gift goes unrecorded.
    return this.audit.run(
      'data_gift_granted',
      adminId,
      { type: 'user', id: userId },
      { planTier },
      () => this.rpc.call(EsimRpc.grantGift, { recipientId: userId, planTier }),
      (gift) => `gift ${gift.giftId}`,
    );
  }
}
