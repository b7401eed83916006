import { Injectable, Logger } from '@nestjs/common';
import { EsimRpc, IdentityRpc, IdentityUser, RewardsRpc, UserView } from '@esim/contracts';
import { RequestContext, RpcClient } from '@esim/platform';
import { LiveAnnouncer } from '../user-view/live-announcer';
import { UserViewCache, viewBalance } from '../user-view/user-view-cache';

/**
 * The spec's user, composed of the parts each service owns: identity's account, rewards' balance,
 * esim's gift summary. Read from the read model in Redis (user-view/), which the owners' events
 * keep current; asked of the owners when the model lacks a part or is stale (the user changed
 * something through the gateway since: StaleAfterWriteInterceptor), and by write paths that
 * answer with the user (they say what the owner says now).
 */
@Injectable()
export class UserViewService {
  private readonly log = new Logger(UserViewService.name);
  /** Rebuilds in flight (by user and stale mark), so a burst of requests for a missing view asks the owners once. */
  private readonly rebuilding = new Map<string, Promise<UserView>>();

  constructor(
    private readonly rpc: RpcClient,
    private readonly cache: UserViewCache,
    private readonly announcer: LiveAnnouncer,
  ) {}

  /** The signed-in user's view from the read model, without a call to any service when it is whole. */
  async current(userId: string): Promise<UserView> {
    const { view, staleMark } = await this.cache.read(userId);
    if (view) return view;
    // A rebuild that started before a later write would answer from before it: joined only if it
    // started from the same mark.
    const key = `${userId}|${staleMark ?? ''}`;
    let rebuild = this.rebuilding.get(key);
    if (!rebuild) {
      rebuild = this.forUser(userId, staleMark).finally(() => this.rebuilding.delete(key));
      this.rebuilding.set(key, rebuild);
    }
    return rebuild;
  }

  /**
   * The view as the owners answer it now, each for the acting user (`userId` here, as meta.userId).
   * Each answer carries its owner's version and goes into the read model only if it is newer than
   * what is there, so a slow answer never undoes a later event; the answer is the model after that.
   * A newer part is announced to the user's open pages as an event's would be: the event that
   * brings it later finds it already there and announces nothing, so without this a page would
   * keep the older view (a refused redemption's points given back, read by GET /api/user before
   * the balance event arrived, stayed reserved on the open page).
   */
  async forUser(userId: string, staleMark: string | null = null): Promise<UserView> {
    const [identity, balance, gifts] = await RequestContext.run({ ...RequestContext.current(), userId }, () =>
      Promise.all([
        this.rpc.call(IdentityRpc.getVersionedUser, {}),
        this.rpc.call(RewardsRpc.getVersionedBalance, {}),
        this.rpc.call(EsimRpc.getVersionedGiftSummary, {}),
      ]),
    );
    const { view, changed } = await this.cache.apply(userId, [
      { part: 'identity', version: identity.version, value: identity.user },
      { part: 'balance', version: balance.version, value: balance },
      { part: 'gifts', version: gifts.version, value: gifts.summary },
    ], { clearStale: staleMark });
    // The answer does not wait for the announcement, nor fails with it: the view is written.
    if (changed) void this.announcer.announce(userId, null).catch((err: Error) => this.log.warn(`could not announce ${userId}'s rebuilt view: ${err.message}`));
    return view ?? { ...identity.user, ...viewBalance(balance), ...gifts.summary };
  }

  /**
   * A brand-new account's view from identity's answer alone: nothing was credited or gifted yet
   * (the sign-up bonus arrives by event, and GET /api/user shows it), so neither rewards nor esim
   * is asked and a slow one cannot fail a sign-up that has already happened.
   */
  static newAccount(identity: IdentityUser): UserView {
    return { ...identity, points: 0, pendingPoints: 0, pendingReleases: [], dataGiftedGB: 0, iccid: null, planTierLastChosen: null, lastGiftedAt: null };
  }
}
