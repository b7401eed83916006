import { z } from 'zod';
import { LOCALES } from '../catalogue/locales';

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
  points: z.number().int(),
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
