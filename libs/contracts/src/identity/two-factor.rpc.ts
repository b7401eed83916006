import { z } from 'zod';
import { defineRpc } from '../rpc/rpc-definition';
import { identityUserSchema } from './identity.rpc';
import { twoFactorCodeSchema } from '../http/two-factor.http';

/**
 * Two-factor sign-in (TOTP with recovery codes, docs/accounts.md). Identity owns the secret, the
 * last used time-step and the hashed recovery codes; the gateway holds the half-signed-in state.
 * setup/enable/disable act on the acting user (meta.userId).
 */
export const TwoFactorRpc = {
  /** A new secret, pending until `enable` proves it was scanned; 409 while 2FA is on. */
  setup: defineRpc('identity', 'two-factor-setup', z.object({}), z.object({ secret: z.string(), otpauthUrl: z.string() })),
  /** Turns 2FA on with a code from the pending secret; answers ten single-use recovery codes, once. */
  enable: defineRpc(
    'identity',
    'two-factor-enable',
    z.object({ code: twoFactorCodeSchema }),
    z.object({ recoveryCodes: z.array(z.string()), user: identityUserSchema }),
  ),
  /** Turns 2FA off with a TOTP or a recovery code. */
  disable: defineRpc('identity', 'two-factor-disable', z.object({ code: twoFactorCodeSchema }), z.object({ user: identityUserSchema })),
  /**
   * The second step of a sign-in whose password the gateway already checked (IdentityRpc.login
   * answered twoFactorRequired): a TOTP not used before, or an unused recovery code, spent here.
   */
  verifySignIn: defineRpc(
    'identity',
    'two-factor-verify-sign-in',
    z.object({ signingInUserId: z.string().uuid(), code: twoFactorCodeSchema }),
    z.object({ user: identityUserSchema }),
  ),
} as const;
