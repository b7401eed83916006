import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = path.resolve(__dirname, '../../../..');
const flows = (args: string[], env: Record<string, string> = {}) => run(process.execPath, ['scripts/flows.mjs', ...args], { cwd: root, env: { ...process.env, ...env } });
const failure = (p: Promise<unknown>) => p.then(() => ({ code: 0, stderr: '' }), (e: { code: number; stderr: string }) => ({ code: e.code, stderr: e.stderr }));

/** The flow pages (docs/flows) and their generator, scripts/flows.mjs. */
describe('flow pages', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flows-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const declare = (steps: unknown[]) => {
    const file = path.join(dir, 'flows.json');
    fs.writeFileSync(file, JSON.stringify({ intro: 'Test flows.', flows: [{ id: 'probe', title: 'Probe', summary: 'A probe.', steps }] }));
    return file;
  };

  it('are what the declared steps and the sources generate (node scripts/flows.mjs --check)', async () => {
    const { stdout } = await flows(['--check']);
    expect(stdout).toMatch(/docs\/flows matches the flows and the code/);
  });

  it('refuse a step naming a route, an RPC or an event the code does not have', async () => {
    const file = declare([
      { route: 'POST /api/no-such-route', from: 'the SPA', what: 'x' },
      { rpc: 'esim.no-such-rpc', what: 'x' },
      { event: 'payments.purchase-esim-issued', what: 'declared under esim, not payments' },
      { what: 'names nothing' },
    ]);
    const { code, stderr } = await failure(flows(['--check'], { FLOWS_FILE: file, FLOWS_DIR: dir }));
    expect(code).toBe(1);
    expect(stderr).toContain('probe, step 1: no controller serves POST /api/no-such-route');
    expect(stderr).toContain('probe, step 2: no RPC esim.no-such-rpc is declared in @esim/contracts');
    expect(stderr).toContain('probe, step 3: no event payments.purchase-esim-issued is declared in @esim/contracts');
    expect(stderr).toContain('probe, step 4: a step names no route, rpc or event');
  });

  it('name the files found in the code, and fail --check once a page is out of date', async () => {
    const file = declare([
      { route: 'POST /api/admin/gift-data/:userId', from: 'the SPA', what: 'gift' },
      { rpc: 'esim.grant-gift', what: 'grant' },
      { event: 'esim.purchase-esim-issued', what: 'issued' },
    ]);
    const env = { FLOWS_FILE: file, FLOWS_DIR: dir };
    await flows([], env);
    const page = fs.readFileSync(path.join(dir, 'probe.md'), 'utf8');
    expect(page).toContain('(../../services/gateway/src/admin/admin-gifts.controller.ts) (`AdminGiftsController.gift`)');
    expect(page).toContain('(../../services/esim/src/gifts/gift-claims.rpc-handler.ts) (`GiftClaimsRpcHandler.grant`)');
    expect(page).toMatch(/\| esim · \[`purchases\/purchase-outcomes\.ts`\][^|]*\| gateway · [^|]*purchase-esim-issued\.event-handler\.ts[^|]*<br>payments · [^|]*esim-issued\.event-handler\.ts/);
    expect(fs.readFileSync(path.join(dir, 'README.md'), 'utf8')).toContain('[Probe](probe.md)');
    await expect(flows(['--check'], env)).resolves.toMatchObject({ stdout: expect.stringContaining('matches') });

    fs.writeFileSync(path.join(dir, 'probe.md'), page.replace('grant', 'grants'));
    fs.writeFileSync(path.join(dir, 'gone.md'), '# a flow no longer declared\n');
    const { code, stderr } = await failure(flows(['--check'], env));
    expect(code).toBe(1);
    expect(stderr).toContain('out of date: probe.md');
    expect(stderr).toContain('not a declared flow: gone.md');
  });
});
