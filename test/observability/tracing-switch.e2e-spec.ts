import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const root = path.resolve(__dirname, '../..');

/**
 * What loading the platform costs, in a fresh process (as a service's main.ts does): which
 * OpenTelemetry SDK modules are loaded, whether Postgres is patched, whether tracing is on.
 */
async function loadPlatform(env: Record<string, string>): Promise<{ enabled: boolean; sdkModules: string[]; pgPatched: boolean }> {
  const script = `
    const platform = require('@esim/platform');
    const pg = require('pg');
    const sdkModules = Object.keys(require.cache)
      .map((f) => /@opentelemetry\\/([a-z-]+)\\//.exec(f)?.[1])
      .filter((m) => m && m !== 'api');
    const pgPatched = pg.Client.prototype.query.__wrapped === true;
    console.log(JSON.stringify({ enabled: platform.tracingEnabled(), sdkModules: [...new Set(sdkModules)].sort(), pgPatched }));`;
  const { stdout } = await promisify(execFile)(process.execPath, ['-r', path.join(root, 'libs/testing/ts-register.cjs'), '-e', script], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', ...env },
  });
  return JSON.parse(stdout.trim().split('\n').at(-1)!);
}

describe('tracing switched by configuration', () => {
  it('costs nothing when no OTLP endpoint is set: no SDK module loaded, nothing patched', async () => {
    expect(await loadPlatform({})).toEqual({ enabled: false, sdkModules: [], pgPatched: false });
  });

  it('patches HTTP, fetch, Postgres and Redis before any service module loads them when an endpoint is set', async () => {
    const on = await loadPlatform({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' });
    expect(on.pgPatched).toBe(true);
    expect(on.sdkModules).toEqual(expect.arrayContaining(['instrumentation-http', 'instrumentation-undici', 'instrumentation-pg', 'instrumentation-ioredis']));
    // The provider itself starts with the service (serviceStarter), once its name is known.
    expect(on.enabled).toBe(false);
  });

  it('stays off with OTEL_SDK_DISABLED, whatever the endpoint', async () => {
    expect(await loadPlatform({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_SDK_DISABLED: 'true' })).toEqual({ enabled: false, sdkModules: [], pgPatched: false });
  });
});
