import { z } from 'zod';
import { defineRpc } from '../rpc/rpc-definition';

/** What another person may see of a user: the id, and the name unless the profile is private (publicDisplayName). */
export const publicNameSchema = z.object({ userId: z.string().uuid(), displayName: z.string().nullable() });
export type PublicName = z.infer<typeof publicNameSchema>;

/**
 * Names to show one user about others (a referral list): any signed-in acting user may ask, and
 * gets only what `privateProfile` lets others see. Unknown ids are left out.
 */
export const PublicNamesRpc = {
  getPublicNames: defineRpc(
    'identity',
    'get-public-names',
    z.object({ userIds: z.array(z.string().uuid()).max(500) }),
    z.object({ names: z.array(publicNameSchema) }),
  ),
} as const;
