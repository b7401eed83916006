import { Inject, Injectable } from '@nestjs/common';
import type Redis from 'ioredis';
import type { GiftSummary, HeldPoints, IdentityUser, UserView } from '@esim/contracts';
import { CONFIG } from '@esim/platform';
import type { GatewayConfig } from '../config';
import { InjectRedis } from '../sessions/redis.provider';
import { UserViewKeys } from './user-view-keys';

/** One part of the view, as its owner answered or announced it, with the owner's version. */
export type ViewPart =
  | { part: 'identity'; version: number; value: IdentityUser }
  | { part: 'balance'; version: number; value: ViewBalance }
  | { part: 'gifts'; version: number; value: GiftSummary };

/** Rewards' part of the view: the spendable points, and the held ones with their next releases. */
export type ViewBalance = { points: number } & HeldPoints;

/** What the read model holds for a user: the whole view, unless a part is missing or a write made it stale. */
export interface CachedView {
  view: UserView | null;
  /** Set while the view is stale (the user changed something through the gateway since it was built). */
  staleMark: string | null;
}

export interface AppliedParts {
  /** Whether any part was newer than what the view held. */
  changed: boolean;
  /** The whole view after the write, or null while a part is still missing. */
  view: UserView | null;
}

/**
 * For each part: written only when its version is above the stored one (or none is stored), in
 * one script, so concurrent writers (events on several replicas, a rebuild racing an event) can
 * never replace a newer part with an older one. A rebuild also clears the stale mark it started
 * from (ARGV[2]), unless another write marked the view again meanwhile. A new hash gets the
 * maximum age; later writes keep it, so every view is rebuilt from the owners at least that often
 * (a lost event heals). Answers whether anything changed and the three parts after the write.
 */
const APPLY_SCRIPT = `
local changed = 0
if ARGV[2] ~= '' and redis.call('HGET', KEYS[1], 'stale') == ARGV[2] then redis.call('HDEL', KEYS[1], 'stale') end
for i = 3, #ARGV, 3 do
  local part = ARGV[i]
  local current = redis.call('HGET', KEYS[1], part .. '.v')
  if not current or tonumber(ARGV[i + 1]) > tonumber(current) then
    redis.call('HSET', KEYS[1], part, ARGV[i + 2], part .. '.v', ARGV[i + 1])
    changed = 1
  end
end
if redis.call('TTL', KEYS[1]) == -1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
local parts = redis.call('HMGET', KEYS[1], 'identity', 'balance', 'gifts', 'stale')
return { changed, parts[1], parts[2], parts[3], parts[4] }
`;

/** A write went through the gateway: the next read rebuilds from the owners (read-your-writes). */
const MARK_STALE_SCRIPT = `
local mark = redis.call('HINCRBY', KEYS[1], 'stale', 1)
if redis.call('TTL', KEYS[1]) == -1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
return mark
`;

type Stored = [identity: string | null, balance: string | null, gifts: string | null, stale: string | null];

interface ViewCommands {
  userViewApply(key: string, ...args: Array<string | number>): Promise<[number, ...Stored]>;
  userViewMarkStale(key: string, maxAgeSeconds: number): Promise<number>;
}

/**
 * The read model of each signed-in user's view in Redis (docs/live-view.md): a hash with three
 * parts — identity's account, rewards' balance (`balance`: the spendable points, the held ones and
 * their next releases, as one JSON object), esim's gift summary — each with its owner's version.
 * (A hash written before held credits existed has `points` instead of `balance`: it reads as
 * missing a part, and the next read rebuilds it.) Events and rebuilds write through `apply`; `GET /api/user` reads with one HMGET.
 */
@Injectable()
export class UserViewCache {
  private readonly maxAgeSeconds: number;

  constructor(
    @InjectRedis() private readonly redis: Redis,
    @Inject(CONFIG) config: GatewayConfig,
  ) {
    this.maxAgeSeconds = config.USER_VIEW_MAX_AGE_SECONDS;
    if (!('userViewApply' in redis)) {
      redis.defineCommand('userViewApply', { numberOfKeys: 1, lua: APPLY_SCRIPT });
      redis.defineCommand('userViewMarkStale', { numberOfKeys: 1, lua: MARK_STALE_SCRIPT });
    }
  }

  private get commands(): ViewCommands {
    return this.redis as unknown as ViewCommands;
  }

  /** The view when it is whole and not stale; otherwise null, and the stale mark a rebuild clears. */
  async read(userId: string): Promise<CachedView> {
    const [identity, balance, gifts, stale] = (await this.redis.hmget(UserViewKeys.view(userId), 'identity', 'balance', 'gifts', 'stale')) as Stored;
    return { view: stale === null ? compose(identity, balance, gifts) : null, staleMark: stale };
  }

  /**
   * The answer of GET /api/user as JSON text, or null when the view is not whole or is stale. The
   * stored parts are JSON already: joined, they are exactly `JSON.stringify(view)` (identity's
   * fields, then the balance's, then the gift summary), without parsing them. `alsoExpire` renews a
   * key's time to live in the same round trip (the fast path's session touch); `redis` is the
   * connection to ask on (the fast path's own).
   */
  async readAnswer(userId: string, alsoExpire?: { key: string; seconds: number }, redis: Redis = this.redis): Promise<string | null> {
    // Sent in the same tick: one round trip (and one write, on an auto-pipelining connection).
    const [parts] = await Promise.all([
      redis.hmget(UserViewKeys.view(userId), 'identity', 'balance', 'gifts', 'stale'),
      alsoExpire ? redis.expire(alsoExpire.key, alsoExpire.seconds) : undefined,
    ]);
    const [identity, balance, gifts, stale] = parts as Stored;
    if (stale !== null || identity === null || balance === null || gifts === null) return null;
    return `${identity.slice(0, -1)},${balance.slice(1, -1)},${gifts.slice(1)}`;
  }

  /**
   * Writes the parts that are newer than the stored ones; older ones are dropped. A rebuild passes
   * the stale mark it read, which is cleared with the write unless the view was marked again.
   */
  async apply(userId: string, parts: readonly ViewPart[], opts: { clearStale?: string | null } = {}): Promise<AppliedParts> {
    const args = parts.flatMap((p) => [p.part, p.version, JSON.stringify(p.part === 'balance' ? viewBalance(p.value) : p.value)]);
    const [changed, identity, balance, gifts] = await this.commands.userViewApply(UserViewKeys.view(userId), this.maxAgeSeconds, opts.clearStale ?? '', ...args);
    return { changed: changed === 1, view: compose(identity, balance, gifts) };
  }

  /**
   * The parts a group of events carries (handleAll): of each user's part only the highest version
   * is written, as the script would drop the older ones anyway, each user's in one script run, all
   * users' at once. Answers the users whose view changed.
   */
  async applyLatest(parts: ReadonlyArray<{ userId: string; part: ViewPart }>): Promise<string[]> {
    const latest = new Map<string, Map<ViewPart['part'], ViewPart>>();
    for (const { userId, part } of parts) {
      let held = latest.get(userId);
      if (!held) latest.set(userId, (held = new Map()));
      const current = held.get(part.part);
      if (!current || part.version > current.version) held.set(part.part, part);
    }
    const users = [...latest];
    const applied = await Promise.all(users.map(([userId, held]) => this.apply(userId, [...held.values()])));
    return users.filter((_, i) => applied[i].changed).map(([userId]) => userId);
  }

  /**
   * The user changed something through the gateway (whatever the owner did, its event may not be
   * here yet): the next read asks the owners, so the user reads their own write at once.
   */
  async markStale(userId: string): Promise<void> {
    await this.commands.userViewMarkStale(UserViewKeys.view(userId), this.maxAgeSeconds);
  }

  /** Drops the view (a deleted account: it held personal data). */
  async forget(userId: string): Promise<void> {
    await this.redis.del(UserViewKeys.view(userId));
  }
}

/** Exactly the balance's fields, in this order (the stored JSON is spliced into the answer as it is). */
export function viewBalance(b: ViewBalance): ViewBalance {
  return { points: b.points, pendingPoints: b.pendingPoints, pendingReleases: b.pendingReleases.map((r) => ({ points: r.points, availableAt: r.availableAt })) };
}

function compose(identity: string | null, balance: string | null, gifts: string | null): UserView | null {
  if (identity === null || balance === null || gifts === null) return null;
  // The shape GET /api/user always had: identity's account, the balance, the gift summary.
  return { ...(JSON.parse(identity) as IdentityUser), ...(JSON.parse(balance) as ViewBalance), ...(JSON.parse(gifts) as GiftSummary) };
}
