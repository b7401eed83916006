import { Controller, Get, Query, Res, UseGuards } from '@nestjs/common';
import type { Response } from 'express';
import { AdminUserRow, AdminUsersQuery, adminUsersQuerySchema, NEXT_CURSOR_HEADER, TOTAL_COUNT_HEADER } from '@esim/contracts';
import { ZodPipe } from '../common/zod.pipe';
import { CurrentUserId } from '../sessions/auth.guard';
import { AdminAudit } from './admin-audit';
import { AdminGuard } from './admin.guard';
import { AdminUserTable } from './admin-user-table';

/**
 * `GET /api/admin/users`: one page of the user table, searched, ordered and paged on the server.
 * The body stays the array of rows it always was; the total and the next page's cursor travel in
 * headers.
 */
@Controller('api/admin')
@UseGuards(AdminGuard)
export class AdminUsersController {
  constructor(
    private readonly table: AdminUserTable,
    private readonly audit: AdminAudit,
  ) {}

  @Get('users')
  async list(
    @CurrentUserId() adminId: string,
    @Query(new ZodPipe(adminUsersQuerySchema)) query: AdminUsersQuery,
    @Res({ passthrough: true }) res: Response,
  ): Promise<AdminUserRow[]> {
    const page = await this.table.page(query);
    this.audit.noteRead('admin_users_listed', adminId, { count: page.rows.length, sort: query.sort });
    res.setHeader(TOTAL_COUNT_HEADER, String(page.total));
    if (page.nextCursor) res.setHeader(NEXT_CURSOR_HEADER, page.nextCursor);
    res.setHeader('Access-Control-Expose-Headers', `${TOTAL_COUNT_HEADER}, ${NEXT_CURSOR_HEADER}`);
    return page.rows;
  }
}
