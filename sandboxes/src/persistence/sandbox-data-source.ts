import { Inject, Injectable, OnApplicationShutdown, Provider } from '@nestjs/common';
import { DataSource, EntitySchema, MixedList } from 'typeorm';
import { ensureDatabase } from '@esim/platform';
import { SANDBOXES_CONFIG } from '../sandboxes.tokens';
import type { SandboxesConfig } from '../config';

export interface SandboxStore {
  /** The emulator's name: its schema is `sandbox_<name>` (plus DB_SCHEMA_SUFFIX). */
  name: 'stripe' | 'keepgo' | 'walls' | 'captcha';
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  entities: MixedList<Function | string | EntitySchema>;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  migrations: Function[];
}

export const sandboxSchema = (config: Pick<SandboxesConfig, 'DB_SCHEMA_SUFFIX'>, name: SandboxStore['name']) => `sandbox_${name}${config.DB_SCHEMA_SUFFIX}`;

/**
 * The emulator's own DataSource, provided as `DataSource` inside its module only: each emulator
 * keeps its state in a schema of its own, like a provider's, apart from the services' schemas.
 * Not the services' openDataSource (libs/platform): that one adds the outbox and inbox tables,
 * which an emulator has no use for.
 */
export function sandboxDataSource(store: SandboxStore): Provider {
  return {
    provide: DataSource,
    inject: [SANDBOXES_CONFIG],
    useFactory: async (config: SandboxesConfig) => {
      await ensureDatabase(config.DATABASE_URL);
      const schema = sandboxSchema(config, store.name);
      const ds = new DataSource({
        type: 'postgres',
        url: config.DATABASE_URL,
        schema,
        entities: store.entities,
        migrations: store.migrations,
        migrationsTableName: 'migrations',
        synchronize: false,
        migrationsRun: false,
        poolSize: Math.min(config.DB_POOL_SIZE, 4),
        applicationName: `sandbox-${store.name}`,
        // Unqualified names in the migrations and the emulators' queries resolve to the emulator's schema.
        extra: { options: `-c search_path=${schema}` },
      });
      await ds.initialize();
      // One connection holds the schema's migration lock: two processes starting together migrate once.
      const runner = ds.createQueryRunner();
      try {
        await runner.connect();
        await runner.query('SELECT pg_advisory_lock(hashtext($1))', [`migrations:${schema}`]);
        try {
          await runner.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
          await ds.runMigrations({ transaction: 'each' });
        } finally {
          await runner.query('SELECT pg_advisory_unlock(hashtext($1))', [`migrations:${schema}`]);
        }
      } catch (err) {
        await runner.release();
        await ds.destroy();
        throw err;
      }
      await runner.release();
      return ds;
    },
  };
}

/** Closes the module's DataSource when the app stops. */
@Injectable()
export class SandboxDataSourceCloser implements OnApplicationShutdown {
  constructor(@Inject(DataSource) private readonly ds: DataSource) {}

  async onApplicationShutdown(): Promise<void> {
    if (this.ds.isInitialized) await this.ds.destroy();
  }
}
