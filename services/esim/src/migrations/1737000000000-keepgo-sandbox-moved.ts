import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The KeepGo emulator's tables left this schema: the emulator runs in the sandboxes process, with
 * its own schema (sandboxes/src/keepgo). A schema that had them gets them dropped; sandbox lines
 * only, never a real provider's.
 */
export class KeepGoSandboxMoved1737000000000 implements MigrationInterface {
  name = 'KeepGoSandboxMoved1737000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE IF EXISTS keepgo_sandbox_transactions, keepgo_sandbox_data_bundles, keepgo_sandbox_lines, keepgo_sandbox_account');
  }

  async down(): Promise<void> {
    // The emulator's state lives in its own schema now; there is nothing to put back here.
  }
}
