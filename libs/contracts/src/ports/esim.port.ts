import { DataGiftGranted, ProvisioningFailed, ProvisioningSucceeded } from '../esim/esim.events';
import { EsimRpc } from '../esim/esim.rpc';
import { EsimWalletRpc } from '../esim/wallet.rpc';
import { PaymentSucceeded } from '../payments/payments.events';
import { PurchaseEsimFailed, PurchaseEsimIssued } from '../payments/purchase-esim.events';
import { PointsReserved } from '../rewards/redemptions';
import { defineServicePort } from './service-port';

export const EsimPort = defineServicePort('esim', {
  answers: [...Object.values(EsimRpc), ...Object.values(EsimWalletRpc)],
  publishes: [ProvisioningSucceeded, ProvisioningFailed, DataGiftGranted, PurchaseEsimIssued, PurchaseEsimFailed],
  consumes: [PointsReserved, PaymentSucceeded],
});
