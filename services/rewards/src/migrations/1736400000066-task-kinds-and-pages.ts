import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The task's kind (TASK_KINDS in libs/contracts/src/rewards/tasks.ts), read by the webhooks service
 * from the wall's category: one history label per kind whatever the wall. Tasks credited before it
 * have none and are read as their task type's kind. And an index in the history's page order
 * (newest first, the id breaking ties between tasks of one batch, which share their completed_at),
 * so a page after a cursor reads only its own rows.
 */
export class TaskKindsAndPages1736400000066 implements MigrationInterface {
  name = 'TaskKindsAndPages1736400000066';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE tasks ADD COLUMN kind text CHECK (kind IN ('survey', 'app_install', 'game', 'video_ad', 'signup', 'purchase', 'offer', 'other'))`,
    );
    await q.query('CREATE INDEX tasks_by_user_page ON tasks (user_id, completed_at DESC, id DESC)');
    await q.query('DROP INDEX tasks_by_user');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('CREATE INDEX tasks_by_user ON tasks (user_id, completed_at DESC)');
    await q.query('DROP INDEX tasks_by_user_page');
    await q.query('ALTER TABLE tasks DROP COLUMN kind');
  }
}
