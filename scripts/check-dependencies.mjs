#!/usr/bin/env node
/**
 * Every workspace (libs/*, services/*, frontend) declares in its package.json what its source
 * imports, and nothing it does not. Fails listing each dependency that is:
 * - undeclared: imported by a file of the workspace and in none of its dependency lists;
 * - misplaced: imported by production code (src/, not a spec) but declared only as a devDependency;
 * - unused: a dependency no production file imports or loads by name, or a devDependency nothing
 *   of the workspace uses (sources, specs, config files, the binaries of its scripts, the typings
 *   of a package it uses).
 *
 * Written by hand, on the TypeScript compiler API the repository already builds with
 * (`ts.preProcessFile` lists a file's static imports, re-exports, `require()` and `import()`):
 * knip, the maintained tool for this, brings a native parser and resolver whose lock entries are
 * one binary package per platform, and depcheck is no longer developed. The rules above are all
 * this repository needs, and they read no configuration.
 *
 * node scripts/check-dependencies.mjs    exit code 1 and one line per finding, else a summary
 */
import fs from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import ts from 'typescript';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const rootPkg = readJson(path.join(root, 'package.json'));
const SOURCE = /\.(m?[jt]sx?|cjs|cts|mts)$/;
/** Test code: Jest's spec files (unit, integration, e2e), and anything under a test or testing folder (harnesses). */
const SPEC = /(\.|-)(spec|test)\.[cm]?[jt]sx?$|(^|\/)(test|tests|testing|__tests__)\//;
const SKIP_DIRS = new Set(['node_modules', 'dist', 'coverage', '.nx', 'var']);
const BUILTINS = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));

function readJson(file) {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

/** The workspaces of the root package.json (globs of one trailing `*` or plain folders). */
function workspaces() {
  return rootPkg.workspaces.flatMap((pattern) => {
    if (!pattern.endsWith('/*')) return [pattern];
    const dir = pattern.slice(0, -2);
    return fs
      .readdirSync(path.join(root, dir), { withFileTypes: true })
      .filter((d) => d.isDirectory() && fs.existsSync(path.join(root, dir, d.name, 'package.json')))
      .map((d) => `${dir}/${d.name}`);
  });
}

function* files(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.') || SKIP_DIRS.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else if (SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts')) yield full;
  }
}

/** The package a bare specifier names: `@scope/name/sub` → `@scope/name`, `name/sub` → `name`; null for paths, builtins, virtual modules. */
function packageOf(specifier) {
  const bare = specifier.split('?')[0];
  if (bare.startsWith('.') || bare.startsWith('/') || BUILTINS.has(bare) || bare.includes(':')) return null;
  const parts = bare.split('/');
  return bare.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

function importsOf(file) {
  const text = fs.readFileSync(file, 'utf8');
  const { importedFiles } = ts.preProcessFile(text, true, true);
  return { text, packages: new Set(importedFiles.map((f) => packageOf(f.fileName)).filter(Boolean)) };
}

/** An installed package's package.json, as Node resolves it from the workspace. */
function manifestOf(name, from) {
  for (const dir of [path.join(from, 'node_modules', name), path.join(root, 'node_modules', name)]) {
    const file = path.join(dir, 'package.json');
    if (fs.existsSync(file)) return readJson(file);
  }
  return undefined;
}

/** The names a package's binaries are called by. */
function binsOf(name, from) {
  const bin = manifestOf(name, from)?.bin;
  if (!bin) return [];
  return typeof bin === 'string' ? [name.split('/').pop()] : Object.keys(bin);
}

const findings = [];
let checked = 0;
for (const ws of workspaces()) {
  const dir = path.join(root, ws);
  const pkg = readJson(path.join(dir, 'package.json'));
  const deps = new Set([...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {}), ...Object.keys(pkg.optionalDependencies ?? {})]);
  const devDeps = new Set(Object.keys(pkg.devDependencies ?? {}));
  const production = new Set();
  const anywhere = new Set();
  /** Production code that names a package in a string literal: loaded by name at run time (a pino transport, a TypeORM driver). */
  let productionText = '';
  const importedBy = new Map();
  for (const file of files(dir)) {
    const rel = path.relative(dir, file);
    const inSrc = rel.startsWith(`src${path.sep}`);
    const isProduction = inSrc && !SPEC.test(rel);
    const { text, packages } = importsOf(file);
    if (isProduction) productionText += text;
    for (const name of packages) {
      if (name === pkg.name) continue;
      anywhere.add(name);
      if (isProduction) production.add(name);
      if (inSrc && !importedBy.has(name)) importedBy.set(name, rel);
    }
  }
  const scripts = Object.values(pkg.scripts ?? {}).join('\n');

  for (const [name, file] of importedBy) {
    if (!deps.has(name) && !devDeps.has(name)) findings.push(`${ws}: undeclared ${name} (imported by ${file})`);
    else if (production.has(name) && !deps.has(name)) findings.push(`${ws}: ${name} is imported by production code but only a devDependency`);
  }
  const used = (name) =>
    anywhere.has(name) ||
    new RegExp(`['"\`]${name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}['"\`/]`).test(productionText);
  // A peer of a package the code uses is needed beside it though nothing imports it (pino-http
  // for nestjs-pino, @nestjs/platform-express for @nestjs/core).
  const peers = new Set([...production].flatMap((name) => Object.keys(manifestOf(name, dir)?.peerDependencies ?? {})));
  for (const name of deps) {
    if (!production.has(name) && !used(name) && !peers.has(name)) findings.push(`${ws}: unused dependency ${name}`);
  }
  for (const name of devDeps) {
    const typed = name.startsWith('@types/') ? name.slice('@types/'.length).replace(/^(.+)__(.+)$/, '@$1/$2') : null;
    const ok =
      used(name) ||
      (typed !== null && (anywhere.has(typed) || deps.has(typed))) ||
      binsOf(name, dir).some((bin) => new RegExp(`(^|[\\s;&|(])${bin}(\\s|$)`, 'm').test(scripts));
    if (!ok) findings.push(`${ws}: unused devDependency ${name}`);
  }
  checked++;
}

if (findings.length > 0) {
  console.error(`Dependencies that do not match what the code imports (${findings.length}):`);
  for (const f of findings) console.error(`  ${f}`);
  process.exit(1);
}
console.log(`dependencies: ${checked} workspaces declare what they import, and nothing else`);
