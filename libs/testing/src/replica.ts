import { DataSource } from 'typeorm';
import { RetentionJob, RetentionSweeper } from '@esim/platform';
import { TEST_DATABASE_URL } from './namespace';

/**
 * A second replica of a service for its retention jobs (docs/accounts.md, "Retention"): its own
 * connection to the service's schema and a sweeper of the same jobs, as another process would run.
 */
export async function retentionReplica(
  schema: string,
  jobs: RetentionJob[],
): Promise<{ sweeper: RetentionSweeper; close(): Promise<void> }> {
  const db = await new DataSource({
    type: 'postgres',
    url: TEST_DATABASE_URL,
    extra: { options: `-c search_path=${schema}` },
  }).initialize();
  return { sweeper: new RetentionSweeper(db, schema, jobs, 3_600_000), close: () => db.destroy() };
}

/** The rows each job touched over several sweeps of several replicas (a skipped job counts 0). */
export function touchedIn(rounds: ReadonlyArray<Record<string, number | null>>, job: string): number {
  return rounds.reduce((sum, r) => sum + (r[job] ?? 0), 0);
}
