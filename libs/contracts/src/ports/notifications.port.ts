import { AccountDeleted, EmailChanged, ExistingAccountSignupAttempted, PasswordChanged, PasswordResetRequested, VerificationCodeIssued } from '../identity/identity.events';
import { DataGiftGranted, ProvisioningSucceeded } from '../esim/esim.events';
import { DeliveryResolved } from '../esim/operator.events';
import { LineDataLow } from '../esim/usage-alerts.events';
import { AutoTopupSettled } from '../esim/auto-topup.events';
import { PurchaseResolved } from '../payments/operator.events';
import { NotificationsRpc } from '../notifications/notifications.rpc';
import { PushRpc } from '../notifications/push.rpc';
import { PurchaseCompleted } from '../payments/purchase-receipt.events';
import { PurchaseRefunded } from '../payments/purchase-refund.events';
import { defineServicePort } from './service-port';

/**
 * Emails people: every event here becomes one message in the user's language (a low-data alert
 * also a Web Push to the user's browsers, whose subscriptions it keeps); answers which were sent
 * to whom (data export).
 */
export const NotificationsPort = defineServicePort('notifications', {
  answers: [...Object.values(NotificationsRpc), ...Object.values(PushRpc)],
  consumes: [VerificationCodeIssued, ExistingAccountSignupAttempted, PasswordResetRequested, PasswordChanged, EmailChanged, ProvisioningSucceeded, DataGiftGranted, DeliveryResolved, PurchaseResolved, PurchaseCompleted, PurchaseRefunded, AccountDeleted, LineDataLow, AutoTopupSettled],
});
