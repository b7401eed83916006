// One database role per service (docs/operations.md, "Database roles"): which role and schema
// each service gets, and the administrator's step that makes them (ensureServiceRoles in
// libs/platform/src/persistence/service-roles.ts) and moves what rewards kept for the webhooks
// service (services/rewards/src/webhook-transactions-handover). Shared by scripts/db-roles.mjs
// and scripts/start-all.mjs, so `npm start` runs every service as its own role, as a cluster does.
import { createRequire } from 'node:module';
import path from 'node:path';
import { root } from './product-env.mjs';

const require = createRequire(import.meta.url);
const { BACKEND_SERVICES } = require(path.join(root, 'libs/contracts/dist/ports/services.js'));

/** identity's migration (1734200000000-admin-console) asks for pg_trgm: made here, as a role cannot. */
const EXTENSIONS = ['pg_trgm'];

/**
 * Each service that owns a schema (every backend service; the gateway has no database): its schema
 * (its name, the services' default DB_SCHEMA), and its role and password from
 * `ESIM_<SERVICE>_DATABASE_URL`, the DATABASE_URL its pods get (deploy/k8s/db-roles.yaml); without
 * one, the role `esim_<service>` (serviceRoleName) with no password (pg_hba.conf decides: `npm start`).
 */
export function serviceRoles(env = process.env) {
  const { serviceRoleName } = require(path.join(root, 'libs/platform/dist/persistence/service-roles.js'));
  return BACKEND_SERVICES.map((service) => {
    const own = env[`ESIM_${service.toUpperCase()}_DATABASE_URL`];
    if (!own) return { service, role: serviceRoleName(service), schema: service };
    const url = new URL(own);
    return { service, role: decodeURIComponent(url.username), schema: service, password: url.password ? decodeURIComponent(url.password) : undefined };
  });
}

/**
 * Makes (or brings up to date) every service's role with the administrator's `adminUrl`, moves
 * rewards' hand-over, and returns each service's own DATABASE_URL.
 */
export async function provisionServiceRoles(adminUrl, roles, { ssl } = {}) {
  const { ensureServiceRoles, roleUrl } = require(path.join(root, 'libs/platform/dist/persistence/service-roles.js'));
  const { handOverWebhookTransactions } = require(path.join(root, 'services/rewards/dist/webhook-transactions-handover/webhook-transactions-handover.admin-step.js'));
  const { Client } = require('pg');
  await ensureServiceRoles(adminUrl, roles, { ssl, extensions: EXTENSIONS });
  const schemaOf = Object.fromEntries(roles.map((r) => [r.service, r.schema]));
  const admin = new Client({ connectionString: adminUrl, ssl });
  await admin.connect();
  try {
    if (await handOverWebhookTransactions(admin, { rewards: schemaOf.rewards, webhooks: schemaOf.webhooks })) {
      // The moved tables become the webhooks role's like everything else in its schema.
      await ensureServiceRoles(adminUrl, roles.filter((r) => r.service === 'webhooks'), { ssl });
    }
  } finally {
    await admin.end();
  }
  return Object.fromEntries(roles.map((r) => [r.service, roleUrl(adminUrl, r)]));
}
