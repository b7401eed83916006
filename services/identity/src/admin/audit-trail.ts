import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AuditRpc, RpcRequest, RpcResponse } from '@esim/contracts';
import { AppError, isUniqueViolation } from '@esim/platform';

interface EntryRow {
  id: string;
  seq: string;
  at: Date;
  actor_id: string | null;
  actor: string;
  actor_email: string | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  details: Record<string, string | number | boolean | null>;
  outcome: 'succeeded' | 'failed' | null;
  message: string | null;
  outcome_at: Date | null;
}

type Entry = RpcResponse<typeof AuditRpc.list>['entries'][number];

/**
 * The admin audit trail (migration 1734200000000-admin-console): entries and their outcomes are
 * only ever inserted; the database refuses anything else. An entry is keyed by the id its writer
 * made, so a record retried after a lost answer is stored once.
 */
@Injectable()
export class AuditTrail {
  constructor(private readonly db: DataSource) {}

  async record(actorId: string, r: RpcRequest<typeof AuditRpc.record>): Promise<void> {
    const details = AuditRpc.record.request.parse(r).details;
    await this.db.transaction(async (m) => {
      const inserted: unknown[] = await m.query(
        `INSERT INTO admin_audit_log (id, actor_id, actor, action, target_type, target_id, details)
         VALUES ($1, $2, 'admin', $3, $4, $5, $6) ON CONFLICT (id) DO NOTHING RETURNING id`,
        [r.id, actorId, r.action, r.targetType, r.targetId, JSON.stringify(details)],
      );
      if (inserted.length === 0) {
        const [same] = await m.query('SELECT actor_id, action FROM admin_audit_log WHERE id = $1', [r.id]);
        if (same?.actor_id !== actorId || same?.action !== r.action)
          throw new AppError('audit_id_reused', 'This audit entry id is already used.');
      }
      if (r.outcome) await m.query(`INSERT INTO admin_audit_outcomes (entry_id, outcome, message) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, [r.id, r.outcome, r.outcomeMessage ?? null]);
    });
  }

  /** The outcome of an entry, once: a second, different outcome is refused. */
  async recordOutcome(actorId: string, r: RpcRequest<typeof AuditRpc.recordOutcome>): Promise<void> {
    const [entry] = await this.db.query('SELECT actor_id FROM admin_audit_log WHERE id = $1', [r.entryId]);
    if (!entry) throw new AppError('audit_entry_not_found', 'No such audit entry.');
    if (entry.actor_id !== actorId) throw new AppError('not_the_actor', 'Only the admin who acted records the outcome.');
    try {
      await this.db.query('INSERT INTO admin_audit_outcomes (entry_id, outcome, message) VALUES ($1, $2, $3)', [r.entryId, r.outcome, r.message ?? null]);
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      const [earlier] = await this.db.query('SELECT outcome FROM admin_audit_outcomes WHERE entry_id = $1', [r.entryId]);
      if (earlier?.outcome !== r.outcome) throw new AppError('audit_outcome_recorded', 'This action already has an outcome.');
    }
  }

  /** Newest first; the cursor is the last entry's position. The actor is shown by email while the account lives. */
  async list(before: string | undefined, limit: number): Promise<{ entries: Entry[]; nextCursor: string | null }> {
    const rows: EntryRow[] = await this.db.query(
      `SELECT l.id, l.seq::text AS seq, l.at, l.actor_id, l.actor, u.email AS actor_email, l.action, l.target_type, l.target_id, l.details,
              o.outcome, o.message, o.at AS outcome_at
         FROM admin_audit_log l
         LEFT JOIN admin_audit_outcomes o ON o.entry_id = l.id
         LEFT JOIN users u ON u.id = l.actor_id AND u.deleted_at IS NULL
        WHERE ($1::bigint IS NULL OR l.seq < $1::bigint)
        ORDER BY l.seq DESC LIMIT $2`,
      [before ?? null, limit + 1],
    );
    const page = rows.slice(0, limit);
    return {
      entries: page.map((r) => ({
        id: r.id,
        seq: r.seq,
        at: new Date(r.at).toISOString(),
        actorId: r.actor_id,
        actor: r.actor_id ? (r.actor_email ?? 'deleted account') : r.actor,
        action: r.action,
        targetType: r.target_type,
        targetId: r.target_id,
        details: r.details ?? {},
        outcome: r.outcome,
        outcomeMessage: r.message,
        outcomeAt: r.outcome_at ? new Date(r.outcome_at).toISOString() : null,
      })),
      nextCursor: rows.length > limit ? page[page.length - 1].seq : null,
    };
  }
}
