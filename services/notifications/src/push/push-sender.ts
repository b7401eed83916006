import { readFileSync } from 'node:fs';
import { Agent } from 'node:https';
import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import webpush, { WebPushError } from 'web-push';
import { CONFIG } from '@esim/platform';
import type { NotificationsConfig } from '../config';
import { PushSubscriptions } from './push-subscriptions';
import { VapidKeys } from './vapid-keys';

/** What the service worker shows (frontend/src/pwa/sw.ts): the last line says why it came and where to change it. */
export interface PushMessage {
  title: string;
  body: string;
  why: string;
  /** Opened when the notification is tapped (an app path). */
  url: string;
  /** Replaces an earlier notification with the same tag on the device. */
  tag: string;
}

/**
 * Sends a Web Push to every browser the user subscribed, with the `web-push` library: encrypted to
 * each subscription's keys (RFC 8291) and signed with the VAPID key (RFC 8292). A subscription the
 * push service says is gone (404, 410) is forgotten; another failure is logged, and that browser
 * misses this push (the email, when allowed, still says it).
 */
@Injectable()
export class PushSender implements OnApplicationShutdown {
  private readonly log = new Logger('PushSender');
  private readonly agent?: Agent;

  constructor(
    private readonly subscriptions: PushSubscriptions,
    private readonly keys: VapidKeys,
    @Inject(CONFIG) private readonly config: NotificationsConfig,
  ) {
    if (config.WEB_PUSH_CA_FILE) this.agent = new Agent({ ca: readFileSync(config.WEB_PUSH_CA_FILE, 'utf8'), keepAlive: true });
  }

  onApplicationShutdown(): void {
    this.agent?.destroy();
  }

  /** Answers how many browsers the push service accepted it for. */
  async send(userId: string, message: PushMessage): Promise<number> {
    const targets = await this.subscriptions.of(userId);
    if (targets.length === 0) return 0;
    const { publicKey, privateKey } = await this.keys.get();
    const payload = JSON.stringify(message);
    let delivered = 0;
    for (const s of targets) {
      try {
        await webpush.sendNotification({ endpoint: s.endpoint, keys: { p256dh: s.p256dh, auth: s.auth } }, payload, {
          vapidDetails: { subject: this.config.VAPID_SUBJECT, publicKey, privateKey },
          TTL: this.config.WEB_PUSH_TTL_SECONDS,
          urgency: 'normal',
          timeout: 10_000,
          ...(this.agent ? { agent: this.agent } : {}),
        });
        delivered++;
      } catch (err) {
        if (err instanceof WebPushError && (err.statusCode === 404 || err.statusCode === 410)) {
          await this.subscriptions.expire(s.id);
          this.log.log(`push subscription ${s.id} of user ${userId} expired (${err.statusCode}); forgotten`);
        } else {
          this.log.warn(`push to subscription ${s.id} of user ${userId} failed: ${(err as Error).message}`);
        }
      }
    }
    return delivered;
  }
}
