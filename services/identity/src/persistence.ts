import { Accounts1732061000000 } from './migrations/1732061000000-accounts';
import { UserVersion1734100000000 } from './migrations/1734100000000-user-version';
import { AdminConsole1734200000000 } from './migrations/1734200000000-admin-console';
import { TwoFactor1734300000000 } from './migrations/1734300000000-two-factor';
import { Passkeys1734400000000 } from './migrations/1734400000000-passkeys';
import { ReferralsAndDevices1736300000000 } from './migrations/1736300000000-referrals-and-devices';
import { SignInNetworks1736300000001 } from './migrations/1736300000001-sign-in-networks';
import { LinkDecisions1736400000000 } from './migrations/1736400000000-link-decisions';
import { PasswordResetToken } from './password-reset/password-reset-token.entity';
import { VerificationCode } from './registration/verification-code.entity';
import { User } from './users/user.entity';

/** The identity schema, shared by the service and its operator CLI. */
export const IDENTITY_ENTITIES = [User, VerificationCode, PasswordResetToken];
export const IDENTITY_MIGRATIONS = [Accounts1732061000000, UserVersion1734100000000, AdminConsole1734200000000, TwoFactor1734300000000, Passkeys1734400000000, ReferralsAndDevices1736300000000, SignInNetworks1736300000001, LinkDecisions1736400000000];
