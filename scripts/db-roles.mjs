#!/usr/bin/env node
// Gives each service a database role of its own, limited to its own schema, with the
// administrator's login (docs/operations.md, "Database roles"). Idempotent: run it before the
// services start on every deploy (deploy/k8s: the db-roles Job) and `npm start` runs it too.
//
//   DATABASE_ADMIN_URL=postgres://admin@host/esim ESIM_IDENTITY_DATABASE_URL=postgres://esim_identity:…@host/esim … node scripts/db-roles.mjs
//
// DATABASE_ADMIN_URL (else DATABASE_URL) must be able to create roles and schemas. Each service's
// role and password come from ESIM_<SERVICE>_DATABASE_URL, the DATABASE_URL its pods get (without
// one: esim_<service>, no password); its schema is its name (the services' default DB_SCHEMA).
// Prints each service's DATABASE_URL without its password. Needs the build (npm run build:backend).
// TLS: DB_TLS, DB_TLS_CA_FILE, DB_TLS_SERVERNAME, as the services read them.
import path from 'node:path';
import { createRequire } from 'node:module';
import { root } from './lib/product-env.mjs';
import { provisionServiceRoles, serviceRoles } from './lib/db-roles.mjs';

const require = createRequire(import.meta.url);
const { postgresTls } = require(path.join(root, 'libs/platform/dist/config/backing-services.js'));
const { platformConfigSchema } = require(path.join(root, 'libs/platform/dist/config/platform-config.js'));

const adminUrl = process.env.DATABASE_ADMIN_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/esim_rewards';
// The services' own reading of the TLS settings (libs/platform/src/config/platform-config.ts).
const ssl = postgresTls(platformConfigSchema.pick({ DB_TLS: true, DB_TLS_CA_FILE: true, DB_TLS_SERVERNAME: true }).parse(process.env));
const urls = await provisionServiceRoles(adminUrl, serviceRoles(), { ssl });
for (const [service, url] of Object.entries(urls)) {
  const shown = new URL(url);
  if (shown.password) shown.password = '***';
  console.log(`${service.padEnd(14)} DATABASE_URL=${shown}`);
}
