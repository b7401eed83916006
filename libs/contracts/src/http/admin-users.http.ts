import { z } from 'zod';
import { adminCursorSchema } from '../admin/admin-cursor';
import { defineRoute } from '../openapi/define-route';
import { text } from './text.http';

/** A row of the admin user table (spec section 3, "Admin user row"; docs/admin.md). */
export const adminUserRowSchema = z.object({
  id: z.string().uuid(),
  name: z.string(),
  email: z.string(),
  isAdmin: z.boolean(),
  createdAt: z.string(),
  iccid: z.string().nullable(),
  points: z.number().int(),
  dataGiftedGB: z.number().int(),
  lastGiftedAt: z.string().nullable(),
  /** Admin gifts in GB: granted, claimed, and pending (granted and not claimed yet). */
  giftsGrantedGB: z.number().int(),
  giftsClaimedGB: z.number().int(),
  giftsPendingGB: z.number().int(),
});
export type AdminUserRow = z.infer<typeof adminUserRowSchema>;

/** What the user table can be ordered by. `points` is ordered by rewards (docs/admin.md, "The user table"). */
export const ADMIN_USER_SORTS = ['createdAt', 'name', 'email', 'points'] as const;
export type AdminUserSort = (typeof ADMIN_USER_SORTS)[number];
export const SORT_ORDERS = ['asc', 'desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];
export const ADMIN_USERS_PAGE_MAX = 1000;

/**
 * `GET /api/admin/users`: searched (`q`: part of a name or email), ordered and paged on the
 * server. Pages follow `cursor` (from the `X-Next-Cursor` header of the page before); `offset`
 * remains for older callers. The default (oldest first, 500 rows) is the table's original answer.
 */
export const adminUsersQuerySchema = z
  .object({
    q: text()
      .trim()
      .max(100, 'Search for at most 100 characters')
      .optional(),
    sort: z.enum(ADMIN_USER_SORTS, { error: `sort must be one of ${ADMIN_USER_SORTS.join(', ')}` }).default('createdAt'),
    order: z.enum(SORT_ORDERS, { error: 'order must be asc or desc' }).default('asc'),
    cursor: adminCursorSchema.optional(),
    limit: z.coerce.number().int().min(1).max(ADMIN_USERS_PAGE_MAX).default(500),
    offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  })
  .refine((v) => !(v.cursor && v.offset > 0), { message: 'Use either cursor or offset', path: ['offset'] });
export type AdminUsersQuery = z.infer<typeof adminUsersQuerySchema>;

/** The header that carries the next page's cursor (absent on the last page). */
export const NEXT_CURSOR_HEADER = 'X-Next-Cursor';
/** The header that carries how many users match the search. */
export const TOTAL_COUNT_HEADER = 'X-Total-Count';

/** Columns of the CSV export, in order (the header row). */
export const ADMIN_EXPORT_COLUMNS = ['id', 'name', 'email', 'isAdmin', 'createdAt', 'points', 'status', 'dataGiftedGB', 'iccid', 'lastGiftedAt'] as const;

export const AdminUsersRoutes = {
  listUsers: defineRoute({
    method: 'GET',
    path: '/api/admin/users',
    reasons: ['bad_cursor'],
    tag: 'Admin',
    auth: 'admin',
    summary: 'The admin user table: one page of accounts with points and gifted data',
    description:
      'Searched (`q`), ordered (`sort`, `order`) and paged on the server. The answer is the page\'s rows; `X-Total-Count` says how many users match and `X-Next-Cursor` (absent on the last page) is the `cursor` of the next page.',
    query: adminUsersQuerySchema,
    response: z.array(adminUserRowSchema),
  }),
  exportUsers: defineRoute({
    method: 'GET',
    path: '/api/admin/users/export',
    tag: 'Admin',
    auth: 'admin',
    summary: "'Export Data': every user as CSV, streamed",
    description:
      'Header row then one row per live account, oldest first, written as it is read (constant memory). Cells starting with = + - @, a tab or a carriage return are prefixed with an apostrophe so that spreadsheets never run them. Audited.',
    response: z.string().describe('CSV (RFC 4180, UTF-8)'),
    responseType: 'text/csv',
  }),
};
