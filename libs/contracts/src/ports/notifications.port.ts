import { EmailChanged, ExistingAccountSignupAttempted, PasswordChanged, PasswordResetRequested, VerificationCodeIssued } from '../identity/identity.events';
import { DataGiftGranted, ProvisioningSucceeded } from '../esim/esim.events';
import { DeliveryResolved } from '../esim/operator.events';
import { PurchaseResolved } from '../payments/operator.events';
import { PurchaseCompleted } from '../payments/purchase-receipt.events';
import { PurchaseRefunded } from '../payments/purchase-refund.events';
import { defineServicePort } from './service-port';

/** Emails people: every event here becomes one message in the user's language. */
export const NotificationsPort = defineServicePort('notifications', {
  consumes: [VerificationCodeIssued, ExistingAccountSignupAttempted, PasswordResetRequested, PasswordChanged, EmailChanged, ProvisioningSucceeded, DataGiftGranted, DeliveryResolved, PurchaseResolved, PurchaseCompleted, PurchaseRefunded],
});
