import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The Stripe emulator's tables left this schema: the emulator runs in the sandboxes process, with
 * its own schema (sandboxes/src/stripe). Sandbox objects only; nothing of a purchase was in them.
 */
export class StripeSandboxMoved1737000000000 implements MigrationInterface {
  name = 'StripeSandboxMoved1737000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE IF EXISTS sandbox_stripe_idempotency_keys');
    await q.query('DROP TABLE IF EXISTS sandbox_stripe_objects');
  }

  async down(): Promise<void> {
    // The emulator's state lives in its own schema now; there is nothing to put back here.
  }
}
