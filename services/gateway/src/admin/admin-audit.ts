import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { AuditRpc } from '@esim/contracts';
import { AppError, RpcClient } from '@esim/platform';

type AuditValue = string | number | boolean | null;
export type AuditDetails = Record<string, AuditValue>;
export interface AuditTarget {
  type: string;
  id: string;
}

/** An action written to the trail before it ran; its outcome follows. */
export interface AuditHandle {
  id: string;
  action: string;
}

const TRIES = 3;
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms).unref());

/**
 * Admin actions in the append-only audit trail identity keeps (docs/admin.md, "Audit trail"), and
 * as structured log lines (`audit: true`). An action the console performs is written *before* it
 * runs (`run`): if the trail cannot be written the action is refused, so nothing an admin does
 * goes unrecorded; its outcome is written after, as a row of its own. Reads are only logged (`noteRead`): the trail
 * is for what admins did, not what they looked at.
 */
@Injectable()
export class AdminAudit {
  private readonly log = new Logger('Audit');

  constructor(private readonly rpc: RpcClient) {}

  noteRead(action: string, adminId: string, fields: Record<string, string | number> = {}): void {
    this.log.log({ audit: true, action, by: adminId, ...fields }, `audit ${action}`);
  }

  /** Writes the action to the trail before it runs; a trail that cannot be written refuses the action (503). */
  async begin(action: string, adminId: string, target: AuditTarget | null, details: AuditDetails = {}): Promise<AuditHandle> {
    const id = randomUUID();
    this.log.log({ audit: true, action, by: adminId, target: target?.id, ...details }, `audit ${action}`);
    for (let attempt = 1; ; attempt++) {
      try {
        await this.rpc.call(AuditRpc.record, { id, action, targetType: target?.type ?? null, targetId: target?.id ?? null, details });
        return { id, action };
      } catch (err) {
        if (err instanceof AppError && err.status < 500) throw err;
        if (attempt >= TRIES) {
          this.log.error(`audit ${action}: the trail could not be written, the action is refused: ${(err as Error).message}`);
          throw new AppError('audit_unavailable', 'The audit trail cannot be written right now, so the action was not done. Please try again.');
        }
        await pause(100 * attempt);
      }
    }
  }

  /** The outcome of an action begun with `begin`; never throws (a lost outcome leaves the entry without one, which the trail shows). */
  async finish(handle: AuditHandle, outcome: 'succeeded' | 'failed', message?: string): Promise<void> {
    this.log.log({ audit: true, action: handle.action, entry: handle.id, outcome, message }, `audit ${handle.action} ${outcome}`);
    await this.write(() => this.rpc.call(AuditRpc.recordOutcome, { entryId: handle.id, outcome, message: message?.slice(0, 500) }), handle.action);
  }

  /** begin → work → finish, with the work's error as the failed outcome (and rethrown). */
  async run<T>(action: string, adminId: string, target: AuditTarget | null, details: AuditDetails, work: () => Promise<T>, summary?: (result: T) => string): Promise<T> {
    const handle = await this.begin(action, adminId, target, details);
    try {
      const result = await work();
      await this.finish(handle, 'succeeded', summary?.(result));
      return result;
    } catch (err) {
      await this.finish(handle, 'failed', err instanceof Error ? err.message : String(err));
      throw err;
    }
  }

  private async write(call: () => Promise<unknown>, action: string): Promise<void> {
    for (let attempt = 1; attempt <= TRIES; attempt++) {
      try {
        await call();
        return;
      } catch (err) {
        if ((err instanceof AppError && err.status < 500) || attempt === TRIES) {
          this.log.error(`audit ${action}: could not be written to the trail: ${(err as Error).message}`);
          return;
        }
        await pause(200 * attempt);
      }
    }
  }
}
