import { DataGiftGranted, GiftSummaryChanged, ProvisioningFailed, ProvisioningSucceeded } from '../esim/esim.events';
import { EsimRpc } from '../esim/esim.rpc';
import { EsimAdminRpc } from '../esim/esim-admin.rpc';
import { DeliveryResolved } from '../esim/operator.events';
import { PurchaseResolved } from '../payments/operator.events';
import { EsimWalletRpc } from '../esim/wallet.rpc';
import { PurchaseLineRpc } from '../esim/purchase-line.rpc';
import { PaymentSucceeded } from '../payments/payments.events';
import { PurchaseEsimFailed, PurchaseEsimIssued } from '../esim/purchase-esim.events';
import { AccountDeleted } from '../identity/identity.events';
import { PointsReserved } from '../rewards/redemptions';
import { LineDataLow } from '../esim/usage-alerts.events';
import { AutoTopupRpc } from '../esim/auto-topup.rpc';
import { AutoTopupSettled } from '../esim/auto-topup.events';
import { defineServicePort } from './service-port';

export const EsimPort = defineServicePort('esim', {
  answers: [...Object.values(EsimRpc), ...Object.values(EsimWalletRpc), ...Object.values(EsimAdminRpc), ...Object.values(AutoTopupRpc), ...Object.values(PurchaseLineRpc)],
  publishes: [ProvisioningSucceeded, ProvisioningFailed, DataGiftGranted, PurchaseEsimIssued, PurchaseEsimFailed, DeliveryResolved, GiftSummaryChanged, LineDataLow, AutoTopupSettled],
  consumes: [PointsReserved, PaymentSucceeded, PurchaseResolved, AccountDeleted],
});
