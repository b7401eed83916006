import type { UserSettings } from '../http/user.http';

/**
 * The one rule of `privateProfile` (product-decisions.md: it "hides the user's name from referral
 * lists and anything shown to others"): the name another person may see, or null when the account
 * is private, deleted or nameless. Every list that shows one user to another (a referral list
 * above all) shows this, never `name`; the SPA words null as its own "private user" label.
 */
export function publicDisplayName(user: { name: string | null; settings: Pick<UserSettings, 'privateProfile'> | null; deletedAt?: Date | string | null }): string | null {
  if (user.deletedAt || !user.name) return null;
  return user.settings?.privateProfile === false ? user.name : null;
}
