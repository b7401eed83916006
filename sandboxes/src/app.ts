import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { Express } from 'express';
import { Logger as PinoNestLogger } from 'nestjs-pino';
import { Env, loadConfig } from '@esim/platform';
import { sandboxesConfigSchema } from './config';
import { SandboxesModule } from './sandboxes.module';

export interface StartSandboxesOptions {
  /** Stop on SIGTERM/SIGINT, and when the launcher (npm start) dies (main.ts). */
  shutdownHooks?: boolean;
}

/**
 * Starts the provider emulators from `env`: one HTTP server, each emulator at its provider's paths,
 * each with its own schema (migrated at start). Tests start it in-process, as they start services.
 */
export async function startSandboxes(env: Env, opts: StartSandboxesOptions = {}): Promise<INestApplication> {
  const config = loadConfig(sandboxesConfigSchema, env);
  const app = await NestFactory.create(SandboxesModule.register(config), { bufferLogs: true, abortOnError: false });
  try {
    app.useLogger(app.get(PinoNestLogger));
    app.flushLogs();
    if (opts.shutdownHooks) {
      app.enableShutdownHooks();
      // npm start gives each process an IPC channel: its end means the launcher died (even by SIGKILL).
      if (process.channel) {
        process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
        process.channel.unref();
      }
    }
    const http = app.getHttpAdapter().getInstance() as Express;
    http.disable('x-powered-by');
    await app.listen(config.PORT);
    return app;
  } catch (err) {
    await app.close().catch(() => undefined);
    throw err;
  }
}
