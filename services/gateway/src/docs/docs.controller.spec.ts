import type { AddressInfo } from 'node:net';
import { DynamicModule, Global, INestApplication, Module } from '@nestjs/common';
import { APP_FILTER, NestFactory } from '@nestjs/core';
import * as contracts from '@esim/contracts';
import { CONFIG } from '@esim/platform';
import { FEATURE_MODULES } from '../features';
import { AppErrorFilter } from '../http/app-error.filter';
import { DocsModule } from './docs.module';

/** The configuration the platform module provides to every feature in the gateway. */
@Global()
@Module({})
class ConfigModule {
  static with(config: object): DynamicModule {
    return { module: ConfigModule, providers: [{ provide: CONFIG, useValue: config }], exports: [CONFIG] };
  }
}

async function serve(nodeEnv: string): Promise<{ app: INestApplication; base: string }> {
  @Module({ imports: [ConfigModule.with({ NODE_ENV: nodeEnv }), DocsModule], providers: [{ provide: APP_FILTER, useClass: AppErrorFilter }] })
  class DocsOnly {}
  const app = await NestFactory.create(DocsOnly, { logger: false });
  await app.listen(0, '127.0.0.1');
  return { app, base: `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}` };
}

describe('/api/docs', () => {
  it('is one of the gateway features', () => {
    expect(FEATURE_MODULES).toContain(DocsModule);
  });

  it('serves the generated document and a page with no script, outside production', async () => {
    const { app, base } = await serve('development');
    try {
      const json = await fetch(`${base}/api/docs/openapi.json`);
      expect(json.status).toBe(200);
      expect(await json.json()).toEqual(
        JSON.parse(JSON.stringify(contracts.buildOpenApiDocument(contracts.collectRoutes(contracts as unknown as Record<string, unknown>)))),
      );

      const page = await fetch(`${base}/api/docs`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      const html = await page.text();
      expect(html).toContain('href="/api/docs/openapi.json"');
      expect(html).toContain('<code>/api/redeem-points</code>');
      expect(html).toContain('id="postRedeemPoints"');
      expect(html).not.toMatch(/<script|https?:\/\/(?!json-schema)/);
    } finally {
      await app.close();
    }
  });

  it('does not exist in production', async () => {
    const { app, base } = await serve('production');
    try {
      for (const route of ['/api/docs', '/api/docs/openapi.json']) {
        const res = await fetch(`${base}${route}`);
        expect(res.status).toBe(404);
        expect(await res.json()).toMatchObject({ code: 'not_found' });
      }
    } finally {
      await app.close();
    }
  });
});
