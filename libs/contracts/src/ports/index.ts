import { EsimPort } from './esim.port';
import { GatewayPort } from './gateway.port';
import { IdentityPort } from './identity.port';
import { NotificationsPort } from './notifications.port';
import { PaymentsPort } from './payments.port';
import { RewardsPort } from './rewards.port';
import { WebhooksPort } from './webhooks.port';
import type { ServicePort } from './service-port';
import type { ServiceName } from './services';

export * from './port-rules';
export * from './service-port';
export * from './services';
export { EsimPort, GatewayPort, IdentityPort, NotificationsPort, PaymentsPort, RewardsPort, WebhooksPort };

/** One port per service; the record's type makes a service without a port a compile error. */
export const SERVICE_PORTS: Readonly<Record<ServiceName, ServicePort>> = {
  identity: IdentityPort,
  rewards: RewardsPort,
  esim: EsimPort,
  payments: PaymentsPort,
  notifications: NotificationsPort,
  webhooks: WebhooksPort,
  gateway: GatewayPort,
};
