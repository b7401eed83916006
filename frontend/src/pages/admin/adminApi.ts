import type { AdminUserRow, AdminUserSort, AuditPage, DeadLettersResponse, KeepgoTestResponse, OperatorQueueResponse, SortOrder } from '@esim/contracts';
import { NEXT_CURSOR_HEADER, TOTAL_COUNT_HEADER } from '@esim/contracts';
import { apiRequest } from '../../lib/api';

/** Query keys of the admin reads; gifting and resolving invalidate them. */
export const ADMIN_KEYS = {
  stats: ['/api/admin/stats'] as const,
  users: ['admin-users'] as const,
  queue: ['/api/admin/operator-queue'] as const,
  claims: ['/api/admin/credit-claims'] as const,
  linked: ['/api/admin/linked-accounts'] as const,
  reviews: ['/api/admin/redemption-reviews'] as const,
  deadLetters: ['/api/admin/dead-letters'] as const,
  audit: ['admin-audit'] as const,
};

export const USERS_PAGE_SIZE = 25;

export interface UsersPageRequest {
  q: string;
  sort: AdminUserSort;
  order: SortOrder;
  cursor: string | null;
}

export interface UsersPage {
  rows: AdminUserRow[];
  total: number;
  nextCursor: string | null;
}

/** One page of the user table, searched, ordered and paged by the server (the SPA never loads all rows). */
export async function fetchUsersPage(req: UsersPageRequest, signal?: AbortSignal): Promise<UsersPage> {
  const params = new URLSearchParams({ sort: req.sort, order: req.order, limit: String(USERS_PAGE_SIZE) });
  if (req.q.trim()) params.set('q', req.q.trim());
  if (req.cursor) params.set('cursor', req.cursor);
  const res = await apiRequest('GET', `/api/admin/users?${params}`, undefined, signal);
  return {
    rows: (await res.json()) as AdminUserRow[],
    total: Number(res.headers.get(TOTAL_COUNT_HEADER) ?? 0),
    nextCursor: res.headers.get(NEXT_CURSOR_HEADER),
  };
}

export async function fetchJson<T>(url: string): Promise<T> {
  return (await (await apiRequest('GET', url)).json()) as T;
}

export const fetchKeepgoTest = () => fetchJson<KeepgoTestResponse>('/api/admin/keepgo/test');
export const fetchQueue = () => fetchJson<OperatorQueueResponse>('/api/admin/operator-queue');
export const fetchDeadLetters = () => fetchJson<DeadLettersResponse>('/api/admin/dead-letters');
export const fetchAudit = (before?: string) => fetchJson<AuditPage>(`/api/admin/audit?limit=25${before ? `&before=${before}` : ''}`);

/** The status badge of the user table (spec section 6): 'Can redeem' at 1000 points or more. */
export { REDEMPTION_THRESHOLD_POINTS } from '@esim/contracts';
