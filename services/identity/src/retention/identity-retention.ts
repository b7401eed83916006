import type { RetentionJob } from '@esim/platform';
import type { IdentityConfig } from '../config';

/**
 * Identity's retention (docs/accounts.md, "Retention"), run by the platform's RetentionSweeper:
 * the fraud signals (device-signals.ts: which networks and devices an account signed up or signed
 * in from) are analytics, anonymised after ANALYTICS_ANONYMISE_AFTER_YEARS. A row is nothing but
 * the link between an account and a network or device, so anonymising it is deleting it, counted
 * from when that link was last seen: a network or device still in use stays.
 */
export function identityRetention(config: IdentityConfig): RetentionJob[] {
  const after = `${config.ANALYTICS_ANONYMISE_AFTER_YEARS} years`;
  return [
    {
      name: 'sign-in-networks',
      after,
      sql: `DELETE FROM user_networks WHERE ctid IN (SELECT ctid FROM user_networks WHERE last_seen_at < now() - $2::interval LIMIT $1)`,
    },
    {
      name: 'devices',
      after,
      sql: `DELETE FROM user_devices WHERE ctid IN (SELECT ctid FROM user_devices WHERE last_seen_at < now() - $2::interval LIMIT $1)`,
    },
  ];
}
