import { Injectable } from '@nestjs/common';
import { AdminIdentityUser, AdminUserRow, AdminUsersQuery, EsimRpc, IdentityAdminRpc, RewardsAdminRpc, RewardsRpc } from '@esim/contracts';
import { RpcClient } from '@esim/platform';

export interface AdminUserPage {
  rows: AdminUserRow[];
  nextCursor: string | null;
  total: number;
}

/**
 * The admin user table, paged on the server (docs/admin.md, "The user table"). Identity owns who
 * the users are, rewards their points, esim their gifts; no service holds all three, so:
 * - ordered by creation, name or email: identity searches and pages (keyset), then one batch call
 *   each to rewards and esim fills the page's points and gifts;
 * - ordered by points: rewards pages its points projection (all users, or the ids a search
 *   matched in identity), then identity and esim fill the page.
 * Points shown are always the live balance.
 */
@Injectable()
export class AdminUserTable {
  constructor(private readonly rpc: RpcClient) {}

  async page(query: AdminUsersQuery): Promise<AdminUserPage> {
    const q = query.q?.trim() || undefined;
    const paging = { cursor: query.cursor, offset: query.cursor ? 0 : query.offset, limit: query.limit };
    if (query.sort !== 'points') {
      const found = await this.rpc.call(IdentityAdminRpc.searchUsers, { q, sort: query.sort, order: query.order, ...paging, withTotal: true });
      return { rows: await this.rows(found.users), nextCursor: found.nextCursor, total: found.total ?? 0 };
    }
    let userIds: string[] | undefined;
    let total: number;
    if (q) {
      const matched = await this.rpc.call(IdentityAdminRpc.searchUserIds, { q });
      if (matched.userIds.length === 0) return { rows: [], nextCursor: null, total: 0 };
      userIds = matched.userIds;
      total = matched.total;
    } else {
      total = (await this.rpc.call(IdentityAdminRpc.searchUsers, { sort: 'createdAt', order: 'asc', limit: 1, withTotal: true })).total ?? 0;
    }
    const { ranks, nextCursor } = await this.rpc.call(RewardsAdminRpc.rankByPoints, { order: query.order, ...paging, userIds });
    const { users } = await this.rpc.call(IdentityAdminRpc.getUsers, { userIds: ranks.map((r) => r.userId) });
    const byId = new Map(users.map((u) => [u.id, u]));
    // An account deleted since the projection last caught up is simply left out of the page.
    return { rows: await this.rows(ranks.flatMap((r) => byId.get(r.userId) ?? [])), nextCursor, total };
  }

  /** Identity's users with their live points and gift summary, in the order given. */
  async rows(users: AdminIdentityUser[]): Promise<AdminUserRow[]> {
    if (users.length === 0) return [];
    const userIds = users.map((u) => u.id);
    const [{ balances }, { summaries }] = await Promise.all([
      this.rpc.call(RewardsRpc.getBalances, { userIds }),
      this.rpc.call(EsimRpc.getGiftSummaries, { userIds }),
    ]);
    const points = new Map(balances.map((b) => [b.userId, b.points]));
    const gifts = new Map(summaries.map((s) => [s.userId, s]));
    return users.map((u) => ({
      ...u,
      points: points.get(u.id) ?? 0,
      iccid: gifts.get(u.id)?.iccid ?? null,
      dataGiftedGB: gifts.get(u.id)?.dataGiftedGB ?? 0,
      lastGiftedAt: gifts.get(u.id)?.lastGiftedAt ?? null,
      giftsGrantedGB: gifts.get(u.id)?.giftsGrantedGB ?? 0,
      giftsClaimedGB: gifts.get(u.id)?.giftsClaimedGB ?? 0,
      giftsPendingGB: gifts.get(u.id)?.giftsPendingGB ?? 0,
    }));
  }
}
