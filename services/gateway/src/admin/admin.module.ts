import { Module } from '@nestjs/common';
import { AmqpConnection, CONFIG, DeadLetters, PlatformConfig } from '@esim/platform';
import { AdminAudit } from './admin-audit';
import { AdminGiftsController } from './admin-gifts.controller';
import { AdminStatsController } from './admin-stats.controller';
import { AdminGuard } from './admin.guard';
import { AdminUserTable } from './admin-user-table';
import { AdminUsersController } from './admin-users.controller';
import { CreditClaimsAdminController } from './credit-claims-admin.controller';
import { AuditController } from './audit.controller';
import { DeadLettersController } from './dead-letters.controller';
import { LinkedAccountsController } from './linked-accounts.controller';
import { KeepgoTestController } from './keepgo-test.controller';
import { OperatorQueueController } from './operator-queue.controller';
import { RedemptionReviewsController } from './redemption-reviews.controller';
import { AdminRefundsController } from './admin-refunds.controller';
import { UsersExportController } from './users-export.controller';

/**
 * /api/admin (docs/admin.md): every admin route, all behind AdminGuard — the user table and its
 * export, the stat cards, data gifts, the supplier test, the operator queue, dead letters and the
 * audit trail. Other modules import this one for the guard and the audit.
 */
@Module({
  controllers: [
    AdminUsersController,
    UsersExportController,
    AdminStatsController,
    AdminGiftsController,
    KeepgoTestController,
    OperatorQueueController,
    AdminRefundsController,
    DeadLettersController,
    AuditController,
    CreditClaimsAdminController,
    LinkedAccountsController,
    RedemptionReviewsController,
  ],
  providers: [
    AdminGuard,
    AdminAudit,
    AdminUserTable,
    {
      provide: DeadLetters,
      inject: [AmqpConnection, CONFIG],
      useFactory: (amqp: AmqpConnection, config: PlatformConfig) => new DeadLetters(amqp, { exchange: config.EVENTS_EXCHANGE, queuePrefix: config.QUEUE_PREFIX }),
    },
  ],
  exports: [AdminGuard, AdminAudit],
})
export class AdminModule {}
