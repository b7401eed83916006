import type { AddressInfo } from 'node:net';
import type { INestApplication, Type } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Env } from '@esim/platform';
import { TEST_DATABASE_URL, TestNamespace } from '@esim/testing';
import { startSandboxes } from '../app';
import { CaptchaSandboxModule } from '../captcha/captcha-sandbox.module';
import { KeepGoSandboxModule } from '../keepgo/keepgo-sandbox.module';
import { sandboxSchema } from '../persistence/sandbox-data-source';
import { StripeSandboxModule } from '../stripe/stripe-sandbox.module';
import { WallsSandboxModule } from '../walls/walls-sandbox.module';

type EmulatorName = 'stripe' | 'keepgo' | 'walls' | 'captcha';
const MODULES: Record<EmulatorName, Type> = { stripe: StripeSandboxModule, keepgo: KeepGoSandboxModule, walls: WallsSandboxModule, captcha: CaptchaSandboxModule };

/** The provider emulators started in this process for one test namespace. */
export interface SandboxesUnderTest {
  app: INestApplication;
  /** Where the services find them: their SANDBOXES_URL. */
  url: string;
  /** The schema of one emulator in this namespace (sandbox_<name>_<namespace>), for tests that read its state. */
  schema(name: EmulatorName): string;
  /** One emulator's own DataSource (its schema on the search path), for tests that read or shape its state. */
  db(name: EmulatorName): DataSource;
  stop(): Promise<void>;
}

/**
 * Starts the sandboxes app in-process, as the tests start the services: on a free port, with each
 * emulator's schema suffixed by the namespace id (so TestNamespace.cleanup drops them). `env` is
 * added (PUBLIC_URL, STRIPE_WEBHOOK_URL, OFFERWALLS_POSTBACK_URL…).
 */
export async function startSandboxesUnderTest(ns: TestNamespace, env: Env = {}): Promise<SandboxesUnderTest> {
  const suffix = `_${ns.id}`;
  const app = await startSandboxes({
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DATABASE_URL: TEST_DATABASE_URL,
    DB_SCHEMA_SUFFIX: suffix,
    PORT: '0',
    ...env,
  });
  const { port } = app.getHttpServer().address() as AddressInfo;
  return {
    app,
    url: `http://127.0.0.1:${port}`,
    schema: (name) => sandboxSchema({ DB_SCHEMA_SUFFIX: suffix }, name),
    db: (name) => app.select(MODULES[name]).get(DataSource, { strict: true }),
    stop: () => app.close(),
  };
}
