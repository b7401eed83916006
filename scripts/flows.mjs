#!/usr/bin/env node
// One page per user-visible flow in docs/flows/: each HTTP route, RPC and event of the flow in
// order, with who sends it and who handles it. The steps are declared in scripts/flows.json (by
// route, RPC pattern and event name); the files come from the sources: the TypeScript compiler
// API reads every service's src/ and finds
//   - routes:   @Controller(prefix) classes and their @Get/@Post/@Put/@Patch/@Delete methods,
//   - RPCs:     @RpcHandler(Ns.member) methods, and `.call(Ns.member, …)` callers,
//   - events:   @EventHandler(Event) classes, and `.publish(Event, …)` / `newEnvelope(Event, …)`
//               publishers,
// each identifier resolved through the imports from @esim/contracts to its declared definition.
// No documentation generator maps NestJS decorators and an outbox to a flow, hence this script.
//
//   node scripts/flows.mjs           writes docs/flows/*.md
//   node scripts/flows.mjs --list    prints every route, RPC and event found, with its files
//   node scripts/flows.mjs --check   exits 1 when a page is out of date, or a step names a route,
//                                    RPC or event that does not exist or that nothing sends or handles
// FLOWS_FILE / FLOWS_DIR: another declaration to read / directory to write or check (its own test).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const ts = require('typescript');
require(path.join(root, 'libs/testing/ts-register.cjs'));
const contracts = require('@esim/contracts');

const declarationFile = path.resolve(root, process.env.FLOWS_FILE ?? 'scripts/flows.json');
const outDir = path.resolve(root, process.env.FLOWS_DIR ?? 'docs/flows');
const check = process.argv.includes('--check');
const rel = (file) => path.relative(root, file).split(path.sep).join('/');

// --- what @esim/contracts declares ------------------------------------------------------------

const isEvent = (v) => v && typeof v === 'object' && typeof v.routingKey === 'string' && typeof v.producer === 'string';
const isRpc = (v) => v && typeof v === 'object' && typeof v.pattern === 'string' && typeof v.service === 'string' && 'request' in v;
/** Event name (`producer.name`, as the steps say it) → definition; RPC pattern → definition. */
const events = new Map();
const rpcs = new Map();
for (const value of Object.values(contracts)) {
  if (isEvent(value)) events.set(`${value.producer}.${value.name}`, value);
  else if (value && typeof value === 'object' && !Array.isArray(value)) for (const member of Object.values(value)) if (isRpc(member)) rpcs.set(member.pattern, member);
}

// --- what the services' sources do ------------------------------------------------------------

function sourceFiles(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return ['node_modules', 'dist', 'testing', 'migrations'].includes(entry.name) ? [] : sourceFiles(file);
    return /\.ts$/.test(entry.name) && !/\.(spec|integration-spec|e2e-spec)\.ts$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [file] : [];
  });
}

const found = { routes: [], rpcHandlers: [], rpcCallers: [], eventHandlers: [], publishers: [] };
const services = fs.readdirSync(path.join(root, 'services')).filter((s) => fs.existsSync(path.join(root, 'services', s, 'src')));

for (const service of services) {
  for (const file of sourceFiles(path.join(root, 'services', service, 'src'))) scanFile(service, file);
}

function scanFile(service, file) {
  const text = fs.readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  // Local name → exported name, for what the file imports from @esim/contracts.
  const imported = new Map();
  // Local string constants (a route's path may be one).
  const constants = new Map();
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement) && statement.moduleSpecifier.text === '@esim/contracts') {
      const bindings = statement.importClause?.namedBindings;
      if (bindings && ts.isNamedImports(bindings)) for (const el of bindings.elements) imported.set(el.name.text, (el.propertyName ?? el.name).text);
    }
    if (ts.isVariableStatement(statement)) {
      for (const d of statement.declarationList.declarations) if (ts.isIdentifier(d.name) && d.initializer && ts.isStringLiteralLike(d.initializer)) constants.set(d.name.text, d.initializer.text);
    }
  }
  const contract = (name) => (imported.has(name) ? contracts[imported.get(name)] : undefined);
  const eventOf = (node) => (node && ts.isIdentifier(node) && isEvent(contract(node.text)) ? contract(node.text) : undefined);
  const rpcOf = (node) => {
    if (!node || !ts.isPropertyAccessExpression(node) || !ts.isIdentifier(node.expression)) return undefined;
    const member = contract(node.expression.text)?.[node.name.text];
    return isRpc(member) ? member : undefined;
  };
  const stringOf = (node) => {
    if (!node) return '';
    if (ts.isStringLiteralLike(node)) return node.text;
    if (ts.isIdentifier(node)) return constants.get(node.text) ?? (typeof contract(node.text) === 'string' ? contract(node.text) : undefined);
    return undefined;
  };
  const decoratorsOf = (node) =>
    (ts.canHaveDecorators(node) ? (ts.getDecorators(node) ?? []) : [])
      .map((d) => d.expression)
      .filter((e) => ts.isCallExpression(e) && ts.isIdentifier(e.expression))
      .map((e) => ({ name: e.expression.text, args: e.arguments }));
  /** `Class.method`, `Class` or `function` around a node: where in the file it happens. */
  const placeOf = (node) => {
    const names = [];
    for (let n = node.parent; n; n = n.parent) {
      if ((ts.isMethodDeclaration(n) || ts.isFunctionDeclaration(n) || ts.isPropertyDeclaration(n)) && n.name && ts.isIdentifier(n.name)) names.unshift(n.name.text);
      else if (ts.isClassDeclaration(n) && n.name) names.unshift(n.name.text);
    }
    return names.slice(0, 2).join('.');
  };
  const at = (node) => ({ service, file: rel(file), place: placeOf(node) });

  const visit = (node) => {
    if (ts.isClassDeclaration(node) && node.name) {
      const classDecorators = decoratorsOf(node);
      const controller = classDecorators.find((d) => d.name === 'Controller');
      for (const d of classDecorators) {
        const event = d.name === 'EventHandler' ? eventOf(d.args[0]) : undefined;
        if (event) found.eventHandlers.push({ key: event.routingKey, service, file: rel(file), place: node.name.text });
      }
      for (const member of node.members) {
        if (!ts.isMethodDeclaration(member) || !member.name || !ts.isIdentifier(member.name)) continue;
        const place = `${node.name.text}.${member.name.text}`;
        for (const d of decoratorsOf(member)) {
          if (d.name === 'RpcHandler') {
            const rpc = rpcOf(d.args[0]);
            if (rpc) found.rpcHandlers.push({ key: rpc.pattern, service, file: rel(file), place });
          } else if (controller && ['Get', 'Post', 'Put', 'Patch', 'Delete'].includes(d.name)) {
            const prefix = stringOf(controller.args[0]);
            const sub = stringOf(d.args[0]);
            if (prefix === undefined || sub === undefined) continue;
            const route = `/${[prefix, sub].map((p) => p.replace(/^\/+|\/+$/g, '')).filter(Boolean).join('/')}`;
            found.routes.push({ key: `${d.name.toUpperCase()} ${route}`, service, file: rel(file), place });
          }
        }
      }
    }
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const name = ts.isPropertyAccessExpression(callee) ? callee.name.text : ts.isIdentifier(callee) ? callee.text : '';
      if (name === 'publish' || name === 'newEnvelope') {
        const event = eventOf(node.arguments[0]);
        if (event) found.publishers.push({ key: event.routingKey, ...at(node) });
      } else if (name === 'call') {
        const rpc = rpcOf(node.arguments[0]);
        if (rpc) found.rpcCallers.push({ key: rpc.pattern, ...at(node) });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}

const unique = (sites) => [...new Map(sites.map((s) => [`${s.key ?? ''}#${s.file}#${s.place}`, s])).values()].sort((a, b) => a.file.localeCompare(b.file) || a.place.localeCompare(b.place));

if (process.argv.includes('--list')) {
  // What the scan found, to write a flow's steps from.
  for (const [kind, list] of Object.entries(found)) for (const s of unique(list)) console.log(`${kind}\t${s.key}\t${s.file}\t${s.place}`);
  process.exit(0);
}

// --- the pages --------------------------------------------------------------------------------

const declaration = JSON.parse(fs.readFileSync(declarationFile, 'utf8'));
const problems = [];
const site = (s) => `${s.service} · [\`${s.file.replace(/^services\/[^/]+\/src\//, '')}\`](../../${s.file})${s.place ? ` (\`${s.place}\`)` : ''}`;
const sites = (list) => list.map(site).join('<br>');
const cell = (text) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function stepRow(flow, step, index) {
  const where = `${flow.id}, step ${index + 1}`;
  if (step.route) {
    const handlers = unique(found.routes.filter((r) => r.key === step.route));
    if (handlers.length === 0) problems.push(`${where}: no controller serves ${step.route}`);
    return [`\`${step.route}\``, 'HTTP route', cell(step.from ?? ''), sites(handlers), cell(step.what)];
  }
  if (step.rpc) {
    const def = rpcs.get(step.rpc);
    if (!def) {
      problems.push(`${where}: no RPC ${step.rpc} is declared in @esim/contracts`);
      return [`\`${step.rpc}\``, 'RPC', '', '', cell(step.what)];
    }
    const callers = unique(found.rpcCallers.filter((c) => c.key === def.pattern));
    const handlers = unique(found.rpcHandlers.filter((h) => h.key === def.pattern));
    if (callers.length === 0) problems.push(`${where}: nothing calls ${def.pattern}`);
    if (handlers.length === 0) problems.push(`${where}: no @RpcHandler answers ${def.pattern}`);
    return [`\`${def.pattern}\``, 'RPC', sites(callers), sites(handlers), cell(step.what)];
  }
  if (step.event) {
    const def = events.get(step.event);
    if (!def) {
      problems.push(`${where}: no event ${step.event} is declared in @esim/contracts`);
      return [`\`${step.event}\``, 'event', '', '', cell(step.what)];
    }
    const publishers = unique(found.publishers.filter((p) => p.key === def.routingKey));
    const handlers = unique(found.eventHandlers.filter((h) => h.key === def.routingKey));
    if (publishers.length === 0) problems.push(`${where}: nothing publishes ${def.routingKey}`);
    if (handlers.length === 0) problems.push(`${where}: no @EventHandler consumes ${def.routingKey}`);
    return [`\`${def.routingKey}\``, 'event', sites(publishers), sites(handlers), cell(step.what)];
  }
  problems.push(`${where}: a step names no route, rpc or event`);
  return ['', '', '', '', ''];
}

const generated = (what) => `<!-- Generated by \`node scripts/flows.mjs\` from ${what} and the services' sources: edit those, not this page. -->`;
const pages = new Map();
for (const flow of declaration.flows) {
  const rows = flow.steps.map((step, i) => `| ${i + 1} | ${stepRow(flow, step, i).join(' | ')} |`);
  pages.set(
    `${flow.id}.md`,
    [
      generated('scripts/flows.json'),
      '',
      `# ${flow.title}`,
      '',
      flow.summary,
      '',
      ...(flow.see ? [`See also ${flow.see}.`, ''] : []),
      '| # | Step | Kind | Sent by | Handled by | What happens |',
      '|---|---|---|---|---|---|',
      ...rows,
      '',
    ].join('\n'),
  );
}
pages.set(
  'README.md',
  [
    generated('scripts/flows.json'),
    '',
    '# Flows',
    '',
    declaration.intro,
    '',
    '| Flow | What it covers |',
    '|---|---|',
    ...declaration.flows.map((f) => `| [${f.title}](${f.id}.md) | ${cell(f.summary)} |`),
    '',
  ].join('\n'),
);

if (problems.length > 0) {
  console.error(`${rel(declarationFile)} names steps the code does not have:`);
  for (const p of problems) console.error(`  - ${p}`);
  process.exit(1);
}

if (check) {
  const stale = [...pages].filter(([name, text]) => !fs.existsSync(path.join(outDir, name)) || fs.readFileSync(path.join(outDir, name), 'utf8') !== text).map(([name]) => name);
  const extra = fs.existsSync(outDir) ? fs.readdirSync(outDir).filter((n) => n.endsWith('.md') && !pages.has(n)) : [];
  if (stale.length === 0 && extra.length === 0) {
    console.log(`${rel(outDir)} matches the flows and the code (${declaration.flows.length} flows)`);
    process.exit(0);
  }
  console.error(`${rel(outDir)} is out of date: run \`node scripts/flows.mjs\` and commit it.`);
  for (const name of stale) console.error(`  out of date: ${name}`);
  for (const name of extra) console.error(`  not a declared flow: ${name}`);
  process.exit(1);
}

fs.mkdirSync(outDir, { recursive: true });
for (const [name, text] of pages) fs.writeFileSync(path.join(outDir, name), text);
console.log(`wrote ${rel(outDir)} (${declaration.flows.length} flows)`);
