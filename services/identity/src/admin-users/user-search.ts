import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  AdminIdentityUser,
  decodeAdminCursor,
  encodeAdminCursor,
  IdentityUserSort,
  SEARCH_IDS_MAX,
  SortOrder,
} from '@esim/contracts';
import { AppError } from '@esim/platform';

interface UserRow {
  id: string;
  name: string;
  email: string;
  is_admin: boolean;
  created_at: Date;
  sort_key: string;
}

/**
 * What each order sorts by: the expression of its index (migration 1734200000000-admin-console),
 * and how a cursor's value is compared. created_at travels as Postgres' own text so that the
 * microseconds survive the round trip (a JS Date keeps milliseconds).
 */
const ORDERS: Record<IdentityUserSort, { key: string; cast: string }> = {
  createdAt: { key: 'created_at', cast: 'timestamptz' },
  name: { key: 'lower(name)', cast: 'text' },
  email: { key: 'email', cast: 'text' },
};

/** The searched text: email (always lower case) and name, as the trigram index covers them. */
const SEARCHED = `(email || ' ' || lower(name))`;

const likePattern = (q: string) => `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const badCursor = () => new AppError('bad_cursor', 'cursor must come from a previous page');

export interface SearchPage {
  users: AdminIdentityUser[];
  nextCursor: string | null;
  total: number | null;
}

/**
 * The identity side of the admin user table at 100,000 accounts: search by part of a name or
 * email (trigram index), keyset pages in any of three orders (one index each), and lookups by id
 * for pages another service ordered.
 */
@Injectable()
export class UserSearch {
  constructor(private readonly db: DataSource) {}

  async page(opts: { q?: string; sort: IdentityUserSort; order: SortOrder; cursor?: string; offset: number; limit: number; withTotal: boolean }): Promise<SearchPage> {
    const { key, cast } = ORDERS[opts.sort];
    const params: unknown[] = [];
    const where = ['deleted_at IS NULL'];
    if (opts.q) {
      params.push(likePattern(opts.q));
      where.push(`${SEARCHED} LIKE $${params.length}`);
    }
    const filter = where.join(' AND ');
    const paging = [...where];
    if (opts.cursor) {
      const decoded = decodeAdminCursor(opts.cursor);
      if (!decoded || typeof decoded[0] !== 'string') throw badCursor();
      params.push(decoded[0], decoded[1]);
      paging.push(`(${key}, id) ${opts.order === 'asc' ? '>' : '<'} ($${params.length - 1}::${cast}, $${params.length}::uuid)`);
    }
    const direction = opts.order === 'asc' ? 'ASC' : 'DESC';
    params.push(opts.limit + 1, opts.cursor ? 0 : opts.offset);
    // The page and the count run side by side, on two connections of the pool.
    const [rows, total] = await Promise.all([
      this.db.query(
        `SELECT id, name, email, is_admin, created_at, (${key})::text AS sort_key FROM users
          WHERE ${paging.join(' AND ')}
          ORDER BY ${key} ${direction}, id ${direction}
          LIMIT $${params.length - 1} OFFSET $${params.length}`,
        params,
      ) as Promise<UserRow[]>,
      opts.withTotal
        ? (this.db.query(`SELECT count(*)::int AS n FROM users WHERE ${filter}`, opts.q ? [params[0]] : []) as Promise<Array<{ n: number }>>).then(([row]) => row.n)
        : Promise.resolve(null),
    ]);
    const more = rows.length > opts.limit;
    const page = rows.slice(0, opts.limit);
    const last = page[page.length - 1];
    return {
      users: page.map(toAdminUser),
      nextCursor: more && last ? encodeAdminCursor([last.sort_key, last.id]) : null,
      total,
    };
  }

  /** The live accounts among these ids, in the order asked. */
  async byIds(userIds: string[]): Promise<AdminIdentityUser[]> {
    if (userIds.length === 0) return [];
    const rows: UserRow[] = await this.db.query(
      `SELECT id, name, email, is_admin, created_at, '' AS sort_key FROM users WHERE id = ANY($1::uuid[]) AND deleted_at IS NULL`,
      [userIds],
    );
    const byId = new Map(rows.map((r) => [r.id, toAdminUser(r)]));
    return userIds.flatMap((id) => byId.get(id) ?? []);
  }

  /** Ids matching `q`, oldest first, at most SEARCH_IDS_MAX (for another service to order them). */
  async matchingIds(q: string): Promise<{ userIds: string[]; total: number; truncated: boolean }> {
    const pattern = likePattern(q);
    const rows: Array<{ id: string }> = await this.db.query(
      `SELECT id FROM users WHERE deleted_at IS NULL AND ${SEARCHED} LIKE $1 ORDER BY created_at, id LIMIT $2`,
      [pattern, SEARCH_IDS_MAX + 1],
    );
    const truncated = rows.length > SEARCH_IDS_MAX;
    const total = truncated
      ? ((await this.db.query(`SELECT count(*)::int AS n FROM users WHERE deleted_at IS NULL AND ${SEARCHED} LIKE $1`, [pattern]))[0].n as number)
      : rows.length;
    return { userIds: rows.slice(0, SEARCH_IDS_MAX).map((r) => r.id), total, truncated };
  }

  /** How many live accounts there are. */
  async countLive(): Promise<number> {
    const [row] = await this.db.query('SELECT count(*)::int AS n FROM users WHERE deleted_at IS NULL');
    return row.n;
  }
}

function toAdminUser(r: UserRow): AdminIdentityUser {
  return { id: r.id, name: r.name, email: r.email, isAdmin: r.is_admin, createdAt: new Date(r.created_at).toISOString() };
}
