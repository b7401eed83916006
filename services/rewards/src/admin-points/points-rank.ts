import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { decodeAdminCursor, encodeAdminCursor, SortOrder } from '@esim/contracts';
import { AppError, CONFIG } from '@esim/platform';
import type { RewardsConfig } from '../config';

/** Transfers are re-read this long after they were first seen: a slower transaction may commit a lower seq later. */
const REREAD_WINDOW_MS = 30_000;
/** Until a pass is older than the window (just after start), the last this many transfers are re-read instead. */
const REREAD_TRANSFERS = 10_000;
/** A full rebuild now and then catches anything the window missed and drops closed accounts. */
const FULL_REBUILD_MS = 60 * 60_000;

const badCursor = () => new AppError('bad_cursor', 'cursor must come from a previous page');

/**
 * Users ordered by points for the admin table (docs/admin.md, "The user table"). The ledger keeps
 * each user's balance in a row (`ledger_user_balances`, migration 1734400000000), but an index on
 * it to sort by would cost every credit a new index entry (a changed indexed column rules out a
 * HOT update); so the balances are projected into `admin_points_rank` (one index) a few seconds
 * behind the ledger. Each pass copies the balance rows of the accounts that transfers touched
 * since a watermark on the transfers' `seq`, re-reading a window behind it because transactions
 * commit out of seq order. The ledger itself is not touched: no lock or trigger on the hot path of
 * crediting postbacks.
 */
@Injectable()
export class PointsRank implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly log = new Logger('PointsRank');
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  /** (when, highest seq seen) of recent passes: the watermark is the newest one older than the window. */
  private marks: Array<{ at: number; seq: number }> = [];
  private lastFullAt = 0;

  constructor(
    private readonly db: DataSource,
    @Inject(CONFIG) private readonly config: RewardsConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.refresh(), this.config.ADMIN_POINTS_REFRESH_MS);
    void this.refresh();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** One pass (passes never overlap; a replica that cannot take the lock skips its turn). */
  refresh(): Promise<void> {
    this.running ??= this.pass()
      .catch((err: unknown) => this.log.warn(`points rank refresh failed, will retry: ${(err as Error).message}`))
      .finally(() => (this.running = undefined));
    return this.running;
  }

  private async pass(): Promise<void> {
    const runner = this.db.createQueryRunner();
    await runner.connect();
    try {
      const [{ locked }] = await runner.query(`SELECT pg_try_advisory_lock(hashtext('rewards:admin-points-rank')) AS locked`);
      if (!locked) return;
      try {
        const now = Date.now();
        const [{ seq }] = await runner.query('SELECT COALESCE(max(seq), 0)::text AS seq FROM ledger_transfers');
        if (now - this.lastFullAt >= FULL_REBUILD_MS) {
          await runner.query(
            `INSERT INTO admin_points_rank (user_id, points, refreshed_at)
             SELECT a.user_id, COALESCE(b.posted + b.pending, 0), now() FROM ledger_accounts a LEFT JOIN ledger_user_balances b ON b.account_id = a.id
              WHERE a.user_id IS NOT NULL AND a.closed_at IS NULL
             ON CONFLICT (user_id) DO UPDATE SET points = EXCLUDED.points, refreshed_at = EXCLUDED.refreshed_at`,
          );
          await runner.query('DELETE FROM admin_points_rank r USING ledger_accounts a WHERE a.user_id = r.user_id AND a.closed_at IS NOT NULL');
          this.lastFullAt = now;
          this.marks = [];
        } else {
          const old = [...this.marks].reverse().find((m) => m.at <= now - REREAD_WINDOW_MS);
          const newest = this.marks[this.marks.length - 1]?.seq ?? 0;
          const since = old ? old.seq : Math.max(0, newest - REREAD_TRANSFERS);
          await runner.query(
            `WITH touched AS (
               SELECT debit_account_id AS account_id FROM ledger_transfers WHERE seq > $1
               UNION SELECT credit_account_id FROM ledger_transfers WHERE seq > $1)
             INSERT INTO admin_points_rank (user_id, points, refreshed_at)
             SELECT a.user_id, COALESCE((SELECT b.posted + b.pending FROM ledger_user_balances b WHERE b.account_id = a.id), 0), now()
               FROM touched t JOIN ledger_accounts a ON a.id = t.account_id AND a.user_id IS NOT NULL
             ON CONFLICT (user_id) DO UPDATE SET points = EXCLUDED.points, refreshed_at = EXCLUDED.refreshed_at`,
            [since],
          );
        }
        this.marks.push({ at: now, seq: Number(seq) });
        // Keep the newest mark older than the window, and everything after it.
        const cut = this.marks.findLastIndex((m) => m.at <= now - REREAD_WINDOW_MS);
        if (cut > 0) this.marks = this.marks.slice(cut);
      } finally {
        await runner.query(`SELECT pg_advisory_unlock(hashtext('rewards:admin-points-rank'))`);
      }
    } finally {
      await runner.release();
    }
  }

  /**
   * One page ordered by points (then user id), keyset by `cursor`: every open account, or only
   * `userIds` (a search's matches, where an id without an account ranks with 0).
   */
  async page(opts: { order: SortOrder; cursor?: string; offset: number; limit: number; userIds?: string[] }): Promise<{ ranks: Array<{ userId: string; points: number }>; nextCursor: string | null }> {
    const dir = opts.order === 'asc' ? 'ASC' : 'DESC';
    const cmp = opts.order === 'asc' ? '>' : '<';
    const params: unknown[] = [];
    const source = opts.userIds
      ? (params.push(opts.userIds), `(SELECT u.id AS user_id, COALESCE(r.points, 0) AS points FROM unnest($1::uuid[]) AS u(id) LEFT JOIN admin_points_rank r ON r.user_id = u.id) s`)
      : // Closed accounts (deleted users) leave the projection at the next full rebuild; until then
        // identity, which names the page's users, leaves them out. A join here would cost a scan.
        `admin_points_rank s`;
    let where = '';
    if (opts.cursor) {
      const key = decodeAdminCursor(opts.cursor);
      if (!key || typeof key[0] !== 'number') throw badCursor();
      params.push(key[0], key[1]);
      where = `WHERE (s.points, s.user_id) ${cmp} ($${params.length - 1}::bigint, $${params.length}::uuid)`;
    }
    params.push(opts.limit + 1, opts.cursor ? 0 : opts.offset);
    const rows: Array<{ user_id: string; points: string }> = await this.db.query(
      `SELECT s.user_id, s.points::text AS points FROM ${source} ${where}
        ORDER BY s.points ${dir}, s.user_id ${dir} LIMIT $${params.length - 1} OFFSET $${params.length}`,
      params,
    );
    const page = rows.slice(0, opts.limit).map((r) => ({ userId: r.user_id, points: Number(r.points) }));
    const last = page[page.length - 1];
    return { ranks: page, nextCursor: rows.length > opts.limit && last ? encodeAdminCursor([last.points, last.userId]) : null };
  }
}
