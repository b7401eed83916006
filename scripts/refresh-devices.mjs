#!/usr/bin/env node
// Refreshes the device list the gateway answers GET /api/devices/compatibility from
// (services/gateway/src/devices/data/esim-devices.json) out of a source list, checked and
// normalised: trimmed names, models de-duplicated, devices grouped by brand, and no identifier
// claimed by two phones of the same brand. The format is documented in docs/wallet.md ("The
// device list"); this machine may have no internet, so the source is a file or a URL given here.
//
//   node scripts/refresh-devices.mjs services/gateway/src/devices/data/esim-devices.csv
//   node scripts/refresh-devices.mjs https://example.org/esim-devices.csv --source "Example list, 2026-12"
//   node scripts/refresh-devices.mjs list.json --out /tmp/devices.json
//
// A source is either CSV (`brand,name,esim,models`, esim yes|no, models separated by "|", lines
// starting with # ignored) or JSON (an array of { brand, name, esim, models }, or an object with
// such a `devices` array, e.g. a previous esim-devices.json).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
require(path.join(root, 'libs/testing/ts-register.cjs'));
// The same keys the gateway looks models up by, so a clash here is a clash there.
const { DeviceKey } = require(path.join(root, 'services/gateway/src/devices/device-key.ts'));

const args = process.argv.slice(2);
const option = (name) => {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  const [, value] = args.splice(i, 2);
  if (!value) fail(`${name} needs a value`);
  return value;
};
function fail(message) {
  console.error(`refresh-devices: ${message}`);
  process.exit(1);
}

const out = path.resolve(root, option('--out') ?? 'services/gateway/src/devices/data/esim-devices.json');
const sourceLabel = option('--source');
const [input] = args;
if (!input || args.length > 1) fail('usage: node scripts/refresh-devices.mjs <file or URL> [--source "<where it comes from>"] [--out <file>]');

const isUrl = /^https?:\/\//i.test(input) || input.startsWith('file:');
let raw;
if (/^https?:\/\//i.test(input)) {
  const response = await fetch(input);
  if (!response.ok) fail(`${input} answered ${response.status}`);
  raw = await response.text();
} else {
  raw = fs.readFileSync(input.startsWith('file:') ? fileURLToPath(input) : path.resolve(input), 'utf8');
}

const rows = /^\s*[[{]/.test(raw) ? fromJson(raw) : fromCsv(raw);
const devices = normalise(rows);
const shownInput = isUrl ? input : path.relative(root, path.resolve(input));
const file = {
  source: sourceLabel ?? `${shownInput}, normalised by scripts/refresh-devices.mjs (format: docs/wallet.md, "The device list")`,
  devices,
};
fs.writeFileSync(out, `${JSON.stringify(file, null, 2)}\n`);
const count = (esim) => devices.filter((d) => d.esim === esim).length;
console.log(`${path.relative(root, out)}: ${devices.length} devices (${count(true)} with eSIM, ${count(false)} without)`);

function fromJson(text) {
  const data = JSON.parse(text);
  const list = Array.isArray(data) ? data : data.devices;
  if (!Array.isArray(list)) fail('a JSON source is an array of devices or an object with a "devices" array');
  return list.map((d, i) => ({ at: `device ${i + 1}`, brand: d.brand, name: d.name, esim: d.esim, models: d.models ?? [] }));
}

// The CSV has no quoting: no field may hold a comma (names and model codes do not), so splitting
// a line is the whole parser; a quote is refused rather than half understood.
function fromCsv(text) {
  const lines = text.split(/\r?\n/).map((line, i) => ({ line: line.trim(), at: `line ${i + 1}` }));
  const data = lines.filter(({ line }) => line && !line.startsWith('#'));
  const [header, ...body] = data;
  if (!header || header.line.replace(/\s/g, '').toLowerCase() !== 'brand,name,esim,models') fail('a CSV source starts with the header "brand,name,esim,models"');
  return body.map(({ line, at }) => {
    if (line.includes('"')) fail(`${at}: quotes are not part of the format`);
    const fields = line.split(',');
    if (fields.length !== 4) fail(`${at}: expected 4 fields, found ${fields.length}`);
    const [brand, name, esim, models] = fields.map((f) => f.trim());
    const flag = { yes: true, no: false, true: true, false: false }[esim.toLowerCase()];
    if (flag === undefined) fail(`${at}: esim is yes or no, not "${esim}"`);
    return { at, brand, name, esim: flag, models: models ? models.split('|') : [] };
  });
}

function normalise(rows) {
  const claimed = new Map();
  const devices = rows.map(({ at, brand, name, esim, models }) => {
    if (typeof brand !== 'string' || !brand.trim()) fail(`${at}: brand is missing`);
    if (typeof name !== 'string' || !name.trim()) fail(`${at}: name is missing`);
    if (typeof esim !== 'boolean') fail(`${at}: esim must be true or false`);
    if (!Array.isArray(models) || models.some((m) => typeof m !== 'string')) fail(`${at}: models must be a list of text`);
    const device = { brand: brand.trim(), name: name.trim().replace(/\s+/g, ' '), esim, models: [] };
    const seen = new Set([DeviceKey.model(device.name)]);
    for (const model of models.map((m) => m.trim().replace(/\s+/g, ' ')).filter(Boolean)) {
      const key = DeviceKey.model(model);
      if (!key) fail(`${at}: "${model}" has no letters or digits`);
      if (!seen.has(key)) device.models.push(model);
      seen.add(key);
    }
    for (const key of seen) {
      const owner = `${DeviceKey.brand(device.brand)} ${key}`;
      if (claimed.has(owner)) fail(`${at}: "${key}" already names ${claimed.get(owner)}`);
      claimed.set(owner, `${device.brand} ${device.name}`);
    }
    return device;
  });
  // Grouped by brand (stable: within a brand, the source's order, oldest phones first).
  return devices.sort((a, b) => a.brand.localeCompare(b.brand));
}
