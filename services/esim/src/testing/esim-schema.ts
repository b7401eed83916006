import { DataSource } from 'typeorm';
import { openDataSource } from '@esim/platform';
import { TEST_DATABASE_URL, TestNamespace } from '@esim/testing';
import { DataGifts1732060900000 } from '../migrations/1732060900000-data-gifts';
import { EsimRedemptions1732063000000 } from '../migrations/1732063000000-redemptions';
import { EsimOperatorQueue1734200000000 } from '../migrations/1734200000000-operator-queue';
import { EsimOwnLines1736100000000 } from '../migrations/1736100000000-own-lines';
import { EsimPurchaseProvisionings1737100000000 } from '../migrations/1737100000000-purchase-provisionings';
import { EsimUsageAlerts1738500000000 } from '../migrations/1738500000000-usage-alerts';
import { EsimAutoTopups1738500000002 } from '../migrations/1738500000002-auto-topups';
import { EsimLateWrites1739500000000 } from '../migrations/1739500000000-late-writes-of-deleted-accounts';

/** esim's schema in the test namespace, with every migration that shapes its tables, for tests on the tables alone. */
export function openEsimSchema(ns: TestNamespace): Promise<DataSource> {
  return openDataSource({
    url: TEST_DATABASE_URL,
    schema: ns.schema('esim'),
    entities: [],
    migrations: [
      DataGifts1732060900000,
      EsimRedemptions1732063000000,
      EsimOperatorQueue1734200000000,
      EsimOwnLines1736100000000,
      EsimPurchaseProvisionings1737100000000,
      EsimUsageAlerts1738500000000,
      EsimAutoTopups1738500000002,
      EsimLateWrites1739500000000,
    ],
  });
}
