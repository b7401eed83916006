/**
 * The runtime half of "every reason is declared": the compiler refuses an AppError made with a typo,
 * but not code it does not build (scripts, a file outside a tsconfig) nor a reason passed as a
 * variable. This reads every service's and library's sources and checks each AppError they make.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isErrorReason } from '@esim/contracts';

const ROOT = path.resolve(__dirname, '../../../..');
const SOURCES = ['libs', 'services'].flatMap((dir) =>
  fs.readdirSync(path.join(ROOT, dir)).map((pkg) => path.join(ROOT, dir, pkg, 'src')).filter((src) => fs.existsSync(src)),
);

/**
 * Where the reason is a typed variable rather than a literal: AppError's own wire decoding, and
 * the RPC client's union of its failure reasons. Each is typed by ErrorReason, so it compiles
 * only with declared reasons.
 */
const TYPED_VARIABLE_SITES = new Set(['libs/platform/src/errors/app-error.ts', 'libs/platform/src/messaging/rpc-client.ts', 'services/gateway/src/user-view/live-stream.controller.ts']);

function* tsFiles(dir: string): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && entry.name !== 'dist') yield* tsFiles(full);
    } else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) yield full;
  }
}

/** The argument text of the call whose `(` is at `open`, up to its matching `)`. */
function argumentsAt(text: string, open: number): string {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return text.slice(open + 1, i);
  }
  return text.slice(open + 1);
}

interface Site {
  file: string;
  line: number;
  args: string;
}

function appErrorSites(): Site[] {
  const sites: Site[] = [];
  for (const src of SOURCES) {
    for (const file of tsFiles(src)) {
      const text = fs.readFileSync(file, 'utf8');
      for (const m of text.matchAll(/new AppError(?:<[^>]*>)?\(/g)) {
        const open = m.index + m[0].length - 1;
        sites.push({ file: path.relative(ROOT, file), line: text.slice(0, m.index).split('\n').length, args: argumentsAt(text, open) });
      }
    }
  }
  return sites;
}

describe('every AppError carries a declared reason', () => {
  const sites = appErrorSites();
  // These two specs make undeclared ones on purpose (to show they do not compile) or name the pattern.
  const checked = sites.filter((s) => !/errors\/(app-error|declared-reasons)\.spec\.ts$/.test(s.file));

  it('finds the throw sites of the services and libraries', () => {
    expect(checked.length).toBeGreaterThan(80);
    expect(new Set(checked.map((s) => s.file.split('/').slice(0, 2).join('/')))).toEqual(
      new Set(['libs/platform', 'services/gateway', 'services/identity', 'services/rewards', 'services/esim', 'services/payments', 'services/notifications']),
    );
  });

  it('names the reason first, as a declared literal (or a typed variable where listed)', () => {
    const undeclared = checked.flatMap((s) => {
      const literal = /^\s*'([^']*)'/.exec(s.args);
      if (literal) return isErrorReason(literal[1]) ? [] : [`${s.file}:${s.line}: '${literal[1]}' is not declared in libs/contracts/src/errors`];
      return TYPED_VARIABLE_SITES.has(s.file) ? [] : [`${s.file}:${s.line}: the reason is not a literal`];
    });
    expect(undeclared).toEqual([]);
  });

  it('passes no reason as an option (the old form, where the first argument was the code)', () => {
    const oldForm = checked.filter((s) => /\breason\s*:/.test(s.args)).map((s) => `${s.file}:${s.line}`);
    expect(oldForm).toEqual([]);
  });
});
