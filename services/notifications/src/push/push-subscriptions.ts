import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { PushSubscriptionRequest } from '@esim/contracts';
import { AppError, CONFIG } from '@esim/platform';
import type { NotificationsConfig } from '../config';

/** Subscriptions kept per user; saving one more forgets the oldest. */
const MAX_PER_USER = 10;

export interface StoredPushSubscription {
  id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
}

/**
 * The users' browsers that receive Web Push: one row per endpoint (saving an endpoint another
 * account had moves it: one browser, one signed-in person), only at the push services
 * WEB_PUSH_ALLOWED_HOSTS names, so the service never posts to an address a user typed.
 */
@Injectable()
export class PushSubscriptions {
  constructor(
    private readonly db: DataSource,
    @Inject(CONFIG) private readonly config: NotificationsConfig,
  ) {}

  async save(userId: string, s: PushSubscriptionRequest): Promise<void> {
    const host = new URL(s.endpoint).hostname.toLowerCase();
    if (!this.config.WEB_PUSH_ALLOWED_HOSTS.some((allowed) => hostMatches(host, allowed.toLowerCase()))) {
      throw new AppError('push_endpoint_refused', 'This push service is not one this site sends to');
    }
    await this.db.transaction(async (m) => {
      await m.query(
        `INSERT INTO push_subscriptions (id, user_id, endpoint, p256dh, auth) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (endpoint) DO UPDATE SET user_id = EXCLUDED.user_id, p256dh = EXCLUDED.p256dh, auth = EXCLUDED.auth, created_at = now()`,
        [randomUUID(), userId, s.endpoint, s.keys.p256dh, s.keys.auth],
      );
      await m.query(
        `DELETE FROM push_subscriptions WHERE user_id = $1 AND id NOT IN
           (SELECT id FROM push_subscriptions WHERE user_id = $1 ORDER BY created_at DESC LIMIT $2)`,
        [userId, MAX_PER_USER],
      );
    });
  }

  /** Forgets the endpoint if it is the user's; answers whether it was. */
  async remove(userId: string, endpoint: string): Promise<boolean> {
    const [, removed]: [unknown, number] = await this.db.query('DELETE FROM push_subscriptions WHERE user_id = $1 AND endpoint = $2', [userId, endpoint]);
    return removed > 0;
  }

  /** The push service said the subscription is gone (404/410). */
  async expire(id: string): Promise<void> {
    await this.db.query('DELETE FROM push_subscriptions WHERE id = $1', [id]);
  }

  async of(userId: string): Promise<StoredPushSubscription[]> {
    return this.db.query('SELECT id, endpoint, p256dh, auth FROM push_subscriptions WHERE user_id = $1 ORDER BY created_at', [userId]);
  }
}

function hostMatches(host: string, allowed: string): boolean {
  if (allowed.startsWith('*.')) return host.endsWith(allowed.slice(1));
  return host === allowed;
}
