import { ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import type { BackendServiceName } from '@esim/contracts';
import { waitFor } from '@esim/testing';
import { freePort } from './ports';

const root = path.resolve(__dirname, '../..');

/**
 * A service in a process of its own (its sources, as Jest runs them), beside the in-process one of
 * test/support/system.ts: a second replica, or one that can die as a crash does (SIGKILL). Its
 * output is kept, so a test can see what this replica did.
 */
export class ServiceProcess {
  private constructor(
    private readonly child: ChildProcess,
    readonly exited: Promise<NodeJS.Signals | number | null>,
    private readonly output: { text: string },
  ) {}

  static async start(service: BackendServiceName, env: NodeJS.ProcessEnv): Promise<ServiceProcess> {
    const port = await freePort();
    const child = spawn(
      process.execPath,
      ['-r', path.join(root, 'libs/testing/ts-register.cjs'), path.join(root, `services/${service}/src/main.ts`)],
      {
        cwd: root,
        env: { ...process.env, ...env, HEALTH_PORT: String(port) },
        // The IPC channel: if the test process dies, the service stops (runService, stopWhenLauncherDies).
        stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      },
    );
    const output = { text: '' };
    child.stdout!.on('data', (c) => (output.text += c));
    child.stderr!.on('data', (c) => (output.text += c));
    const exited = new Promise<NodeJS.Signals | number | null>((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code)));
    // A process that exits before it is ready fails the wait at once, with what it printed.
    const gone = exited.then((how) => {
      throw new Error(`${service} exited (${how}) before it was ready:\n${output.text}`);
    });
    const ready = waitFor(() => fetch(`http://127.0.0.1:${port}/health/ready`).then((r) => r.ok), {
      timeoutMs: 60_000,
      intervalMs: 100,
      what: `${service} to be ready`,
    });
    await Promise.race([ready, gone]).catch((err: Error) => {
      child.kill('SIGKILL');
      throw err;
    });
    return new ServiceProcess(child, exited, output);
  }

  /** What it printed so far (its logs). */
  get logs(): string {
    return this.output.text;
  }

  /** SIGKILL: no shutdown hook, no drain; whatever it was doing stops where it was. */
  async kill(): Promise<void> {
    this.child.kill('SIGKILL');
    expect(await this.exited).toBe('SIGKILL');
  }

  /** SIGTERM and its graceful shutdown. */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.kill('SIGTERM');
    await this.exited;
  }
}
