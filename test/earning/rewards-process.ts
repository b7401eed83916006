import { ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { waitFor } from '@esim/testing';
import { freePort } from '../support/ports';

const root = path.resolve(__dirname, '../..');

/** rewards in a process of its own (its sources, as Jest runs them), so that it can die as a crash does. */
export class RewardsProcess {
  private constructor(
    private readonly child: ChildProcess,
    readonly exited: Promise<NodeJS.Signals | number | null>,
  ) {}

  static async start(env: NodeJS.ProcessEnv): Promise<RewardsProcess> {
    const port = await freePort();
    const child = spawn(
      process.execPath,
      ['-r', path.join(root, 'libs/testing/ts-register.cjs'), path.join(root, 'services/rewards/src/main.ts')],
      {
        cwd: root,
        env: { ...process.env, ...env, HEALTH_PORT: String(port) },
        // The IPC channel: if the test process dies, the service stops (runService, stopWhenLauncherDies).
        stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      },
    );
    let stderr = '';
    child.stderr!.on('data', (c) => (stderr += c));
    const exited = new Promise<NodeJS.Signals | number | null>((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code)));
    // A process that exits before it is ready fails the wait at once, with what it printed.
    const gone = exited.then((how) => {
      throw new Error(`rewards exited (${how}) before it was ready:\n${stderr}`);
    });
    const ready = waitFor(() => fetch(`http://127.0.0.1:${port}/health/ready`).then((r) => r.ok), {
      timeoutMs: 30_000,
      intervalMs: 100,
      what: 'rewards to be ready',
    });
    await Promise.race([ready, gone]).catch((err: Error) => {
      child.kill('SIGKILL');
      throw err;
    });
    return new RewardsProcess(child, exited);
  }

  /** SIGKILL: no shutdown hook, no drain; whatever it was doing stops where it was. */
  async kill(): Promise<void> {
    this.child.kill('SIGKILL');
    expect(await this.exited).toBe('SIGKILL');
  }
}
