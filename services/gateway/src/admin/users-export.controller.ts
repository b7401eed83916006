import { Controller, Get, Logger, Res, UseGuards } from '@nestjs/common';
import type { Response } from 'express';
import { ADMIN_EXPORT_COLUMNS, AdminUserRow, IdentityAdminRpc, REDEMPTION_THRESHOLD_POINTS } from '@esim/contracts';
import { RpcClient } from '@esim/platform';
import { CurrentUserId } from '../sessions/auth.guard';
import { AdminAudit } from './admin-audit';
import { AdminGuard } from './admin.guard';
import { AdminUserTable } from './admin-user-table';
import { csvLine } from './csv';

/** Users read per round trip: one identity page, then one batch each from rewards and esim. */
const BATCH = 1000;

/**
 * 'Export Data' (`GET /api/admin/users/export`): every live user as CSV, written as it is read so
 * that memory stays flat however many users there are (docs/admin.md, "Export"). Identity is paged
 * by keyset, oldest first; each page is joined with points and gifts and written, honouring the
 * socket's backpressure, while the next page is already being read. The export is written to the
 * audit trail before the first byte, and its outcome (rows written, or why it stopped) after.
 */
@Controller('api/admin')
@UseGuards(AdminGuard)
export class UsersExportController {
  private readonly log = new Logger('AdminExport');

  constructor(
    private readonly rpc: RpcClient,
    private readonly table: AdminUserTable,
    private readonly audit: AdminAudit,
  ) {}

  @Get('users/export')
  async export(@CurrentUserId() adminId: string, @Res() res: Response): Promise<void> {
    const handle = await this.audit.begin('users_exported', adminId, null, { format: 'csv' });
    const day = new Date().toISOString().slice(0, 10);
    res.status(200);
    res.setHeader('Content-Type', 'text/csv; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="users-${day}.csv"`);
    res.setHeader('Cache-Control', 'no-store');
    let written = 0;
    let closed = false;
    res.on('close', () => (closed = !res.writableFinished));
    try {
      // The byte order mark lets spreadsheets read the names as UTF-8.
      await this.write(res, `\uFEFF${csvLine(ADMIN_EXPORT_COLUMNS)}`);
      let next = this.page(undefined);
      for (;;) {
        const { users, nextCursor } = await next;
        // Read ahead: the next page is fetched while this one is joined and written.
        if (nextCursor) next = this.page(nextCursor);
        const rows = await this.table.rows(users);
        let chunk = '';
        for (const row of rows) chunk += csvLine(cellsOf(row));
        if (closed) throw new Error('the client went away');
        await this.write(res, chunk);
        written += rows.length;
        if (!nextCursor) break;
      }
      res.end();
      await this.audit.finish(handle, 'succeeded', `${written} users exported`);
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      this.log.error(`export stopped after ${written} users: ${why}`);
      await this.audit.finish(handle, 'failed', `stopped after ${written} users: ${why}`);
      // The status line is gone already: a cut-off body is the only way left to say it failed.
      res.destroy();
    }
  }

  private page(cursor: string | undefined) {
    return this.rpc.call(IdentityAdminRpc.searchUsers, { sort: 'createdAt', order: 'asc', cursor, limit: BATCH, withTotal: false });
  }

  /** Writes and waits for the socket to drain when its buffer is full (or for it to close). */
  private write(res: Response, chunk: string): Promise<void> {
    if (!chunk || res.write(chunk)) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        res.off('drain', done);
        res.off('close', done);
        resolve();
      };
      res.on('drain', done);
      res.on('close', done);
    });
  }
}

function cellsOf(u: AdminUserRow): Array<string | number | boolean | null> {
  const status = u.points >= REDEMPTION_THRESHOLD_POINTS ? 'Can redeem' : 'Earning';
  return [u.id, u.name, u.email, u.isAdmin, u.createdAt, u.points, status, u.dataGiftedGB, u.iccid, u.lastGiftedAt];
}
