import { z } from 'zod';
import { LOCALES } from '../catalogue/locales';
import { heldPointsSchema } from '../rewards/held-credits';

export const userSettingsSchema = z.object({
  emailNotifications: z.boolean(),
  pushNotifications: z.boolean(),
  dataAlerts: z.boolean(),
  marketingEmails: z.boolean(),
  twoFactorAuth: z.boolean(),
  privateProfile: z.boolean(),
});
export type UserSettings = z.infer<typeof userSettingsSchema>;

export const DEFAULT_USER_SETTINGS: UserSettings = {
  emailNotifications: true,
  pushNotifications: true,
  dataAlerts: true,
  marketingEmails: false,
  twoFactorAuth: false,
  privateProfile: false,
};

/** The user as `GET /api/user` answers it, composed by the gateway from identity, rewards and esim. */
export const userViewSchema = z.object({
  id: z.string().uuid(),
  email: z.string(),
  name: z.string(),
  emailVerified: z.boolean(),
  /** Spendable points (the redemption threshold counts only these); below zero after a reversal of spent points. */
  points: z.number().int(),
  /** Earned points still held (docs/earning.md, "Held credits"), and when the next ones become spendable. */
  pendingPoints: heldPointsSchema.shape.pendingPoints,
  pendingReleases: heldPointsSchema.shape.pendingReleases,
  dataGiftedGB: z.number().int(),
  iccid: z.string().nullable(),
  planTierLastChosen: z.string().nullable(),
  lastGiftedAt: z.string().nullable(),
  createdAt: z.string(),
  isAdmin: z.boolean(),
  phone: z.string().nullable(),
  locale: z.enum(LOCALES),
  settings: userSettingsSchema,
});
export type UserView = z.infer<typeof userViewSchema>;
