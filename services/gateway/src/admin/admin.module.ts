import { Module } from '@nestjs/common';
import { AdminAudit } from './admin-audit';
import { AdminGuard } from './admin.guard';
import { AdminUsersController } from './admin-users.controller';

/** /api/admin: every route behind AdminGuard. Other admin features import this module for the guard. */
@Module({
  controllers: [AdminUsersController],
  providers: [AdminGuard, AdminAudit],
  exports: [AdminGuard, AdminAudit],
})
export class AdminModule {}
