/**
 * Where the user view lives in Redis. Keys go through the gateway's client, which adds
 * REDIS_PREFIX; channel names do not (ioredis prefixes keys only), so they take it here.
 */
export const UserViewKeys = {
  /** The read model: one hash per user (user-view-cache.ts). */
  view: (userId: string) => `user-view:${userId}`,
  /** Changes of one user's view, for the replicas holding that user's streams. */
  changes: (prefix: string, userId: string) => `${prefix}user-view:${userId}`,
};
