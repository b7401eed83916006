import { z } from 'zod';
import { defineRpc } from '../rpc/rpc-definition';
import { emailSchema, localeSchema, nameSchema, passwordSchema, verificationCodeSchema } from '../http/auth.http';
import { userSettingsSchema } from '../http/user.http';

/** The identity-owned part of a user. */
export const identityUserSchema = z.object({
  id: z.string().uuid(),
  email: z.string(),
  name: z.string(),
  emailVerified: z.boolean(),
  createdAt: z.string(),
  isAdmin: z.boolean(),
  phone: z.string().nullable(),
  locale: localeSchema,
  settings: userSettingsSchema,
});
export type IdentityUser = z.infer<typeof identityUserSchema>;

export const IdentityRpc = {
  register: defineRpc(
    'identity',
    'register',
    z.object({ email: emailSchema, name: nameSchema, locale: localeSchema }),
    z.object({ email: z.string() }),
  ),
  verifyEmail: defineRpc(
    'identity',
    'verify-email',
    z.object({ email: emailSchema, code: verificationCodeSchema, password: passwordSchema, name: nameSchema, locale: localeSchema }),
    z.object({ user: identityUserSchema }),
  ),
  resendVerification: defineRpc('identity', 'resend-verification', z.object({ email: emailSchema, locale: localeSchema }), z.object({ email: z.string() })),
  getUser: defineRpc('identity', 'get-user', z.object({ userId: z.string().uuid() }), identityUserSchema),
} as const;
