import { serviceStarter } from '@esim/platform';
import { notificationsConfigSchema } from './config';
import { NotificationsModule } from './notifications.module';

export const startNotifications = serviceStarter({ name: 'notifications', configSchema: notificationsConfigSchema, module: (config) => NotificationsModule.register(config) });
