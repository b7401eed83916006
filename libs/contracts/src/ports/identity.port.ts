import {
  AccountDeleted,
  AccountSignalsChanged,
  EmailChanged,
  ExistingAccountSignupAttempted,
  PasswordChanged,
  PasswordResetAsked,
  PasswordResetRequested,
  ProfileChanged,
  UserRegistered,
  VerificationCodeIssued,
} from '../identity/identity.events';
import { IdentityRpc } from '../identity/identity.rpc';
import { RecipientRpc } from '../identity/recipient.rpc';
import { PublicNamesRpc } from '../identity/public-names.rpc';
import { TwoFactorRpc } from '../identity/two-factor.rpc';
import { PasskeyRpc } from '../identity/passkey.rpc';
import { MarketingRpc } from '../identity/marketing.rpc';
import { AuditRpc, IdentityAdminRpc } from '../identity/identity-admin.rpc';
import { defineServicePort } from './service-port';

export const IdentityPort = defineServicePort('identity', {
  answers: [...Object.values(IdentityRpc), ...Object.values(RecipientRpc), ...Object.values(IdentityAdminRpc), ...Object.values(AuditRpc), ...Object.values(TwoFactorRpc), ...Object.values(PasskeyRpc), ...Object.values(PublicNamesRpc), ...Object.values(MarketingRpc)],
  publishes: [VerificationCodeIssued, ExistingAccountSignupAttempted, UserRegistered, PasswordResetAsked, PasswordResetRequested, PasswordChanged, EmailChanged, AccountDeleted, ProfileChanged, AccountSignalsChanged],
  // Forgot-password answers at once and issues the link from its own event, so that known and
  // unknown addresses take the same time to answer. Its own AccountDeleted, once published, erases
  // from its outbox what it published about the person just before (docs/accounts.md, "Deletion").
  consumes: [PasswordResetAsked, AccountDeleted],
});
