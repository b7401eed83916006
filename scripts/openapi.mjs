#!/usr/bin/env node
// The API reference, generated from the zod contracts: every route declared with defineRoute and
// exported from @esim/contracts (libs/contracts/src/openapi). Reads the TypeScript sources
// directly, so no build is needed, and validates the document before writing it.
//
//   node scripts/openapi.mjs           writes docs/openapi.json
//   node scripts/openapi.mjs --check   exits 1 when docs/openapi.json differs from the contracts (CI)
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
// OPENAPI_FILE: another file to write or check (the script's own test).
const target = path.resolve(root, process.env.OPENAPI_FILE ?? 'docs/openapi.json');
const shown = path.relative(root, target);

require(path.join(root, 'libs/testing/ts-register.cjs'));
const contracts = require('@esim/contracts');
const SwaggerParser = require('@apidevtools/swagger-parser');

const document = contracts.buildOpenApiDocument(contracts.collectRoutes(contracts));
// validate() dereferences the object it is given: hand it a copy.
await SwaggerParser.validate(structuredClone(document));
const text = `${JSON.stringify(document, null, 2)}\n`;
const operations = Object.values(document.paths).reduce((n, p) => n + Object.keys(p).length, 0);

if (process.argv.includes('--check')) {
  const current = fs.existsSync(target) ? fs.readFileSync(target, 'utf8') : '';
  if (current === text) {
    console.log(`${shown} matches the contracts (${operations} operations)`);
    process.exit(0);
  }
  const before = current ? JSON.parse(current).paths ?? {} : {};
  const ops = (paths) =>
    new Map(Object.entries(paths).flatMap(([p, methods]) => Object.entries(methods).map(([m, op]) => [`${m.toUpperCase()} ${p}`, JSON.stringify(op)])));
  const [was, now] = [ops(before), ops(document.paths)];
  const changed = [...new Set([...was.keys(), ...now.keys()])].filter((k) => was.get(k) !== now.get(k));
  console.error(`${shown} is out of date with the contracts: run \`node scripts/openapi.mjs\` and commit it.`);
  for (const k of changed) console.error(`  ${!was.has(k) ? 'added' : !now.has(k) ? 'removed' : 'changed'}: ${k}`);
  if (changed.length === 0) console.error('  (outside the operations: info, tags or components)');
  process.exit(1);
}

fs.writeFileSync(target, text);
console.log(`wrote ${shown} (${operations} operations, ${Object.keys(document.paths).length} paths)`);
