import { MigrationInterface, QueryRunner } from 'typeorm';

/** The siteverify emulator's memory (schema sandbox_captcha): the tokens already spent, each passes once. */
export class CaptchaSandbox1737000000002 implements MigrationInterface {
  name = 'CaptchaSandbox1737000000002';

  async up(q: QueryRunner): Promise<void> {
    await q.query('CREATE TABLE spent_tokens (digest text PRIMARY KEY, spent_at timestamptz NOT NULL DEFAULT now())');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE spent_tokens');
  }
}
