import 'reflect-metadata';
import { createLogger, loadConfig, openDataSource } from '@esim/platform';
import { identityConfigSchema } from '../config';
import { IDENTITY_ENTITIES, IDENTITY_MIGRATIONS } from '../persistence';
import { AdminCommand, runAdminCommand } from './admin-command';

const USAGE = 'usage: npm run admin -w @esim/identity -- grant|revoke <email>';

/** Operator CLI: grants or revokes admin on the database the identity service uses (same env). */
async function main(argv: string[]): Promise<number> {
  const [command, email] = argv;
  if ((command !== 'grant' && command !== 'revoke') || !email) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const config = loadConfig(identityConfigSchema);
  // Two connections: opening holds one for the migrations lock while the migrations use another.
  const db = await openDataSource({
    url: config.DATABASE_URL,
    schema: config.DB_SCHEMA ?? 'identity',
    entities: IDENTITY_ENTITIES,
    migrations: IDENTITY_MIGRATIONS,
    poolSize: 2,
    applicationName: 'identity admin',
  });
  try {
    const result = await runAdminCommand(db, command as AdminCommand, email);
    if (result.changed) {
      createLogger('identity', config.LOG_LEVEL).info(
        { audit: true, action: command === 'grant' ? 'admin_granted' : 'admin_revoked', userId: result.userId, by: 'cli' },
        `audit admin_${command === 'grant' ? 'granted' : 'revoked'}`,
      );
    }
    process.stdout.write(`${result.message}\n`);
    return result.ok ? 0 : 1;
  } finally {
    await db.destroy();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
