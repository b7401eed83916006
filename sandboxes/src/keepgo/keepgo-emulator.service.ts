import { randomBytes } from 'node:crypto';
import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { DataSource, EntityManager, In } from 'typeorm';
import {
  KEEPGO_DEMO_ICCID,
  KeepGoBundle,
  KeepGoCreateLineRequest,
  KeepGoDataBundle,
  KeepGoDetailedSimCard,
  KeepGoRefillOption,
  KeepGoRefillRequest,
  KeepGoSimCard,
} from '@esim/esim/dist/keepgo/keepgo-api';
import { DEMO_BUNDLE_ID, SANDBOX_BUNDLES, SANDBOX_OPENING_BALANCE_USD } from './sandbox-catalogue';
import { KeepGoSandboxDataBundle } from './sandbox-data-bundle.entity';
import { newSandboxIccid, newSandboxLpaCode, sandboxLpaCode } from './sandbox-identifiers';
import { KeepGoSandboxLine } from './sandbox-line.entity';
import { KeepGoSandboxTransaction } from './sandbox-transaction.entity';

/** What the emulator answers: an HTTP status and a KeepGo JSON body (always with `ack`). */
export interface EmulatorAnswer {
  status: number;
  body: Record<string, unknown>;
}

const ok = (body: Record<string, unknown> = {}): EmulatorAnswer => ({ status: 200, body: { ack: 'success', ...body } });
const refuse = (status: number, message: string): EmulatorAnswer => ({ status, body: { ack: 'error', message } });
/** The error texts the product recognises (docs/keepgo.md): KeepGo does not document its own. */
const LINE_NOT_FOUND = () => refuse(404, 'line not found');
const NO_REFILLS = () => refuse(422, 'No refills available for this line');
const DAY_MS = 86_400_000;
const MAX_NOTES = 10_000;

/** KeepGo's timestamp format, UTC: "2022-08-11 11:57:27". */
const keepGoTime = (d: Date | null) => (d ? d.toISOString().slice(0, 19).replace('T', ' ') : null);

/**
 * The KeepGo emulator's behaviour over its Postgres state: lines, data bundles, paid
 * transactions and the account balance. It keeps KeepGo's rules (refills only from the offered
 * list, orders only from a bundle's refills, balance pays) and honours an Idempotency-Key: the
 * same key answers the first answer again and does nothing more.
 */
@Injectable()
export class KeepGoEmulator implements OnApplicationBootstrap {
  constructor(private readonly db: DataSource) {}

  onApplicationBootstrap(): Promise<void> {
    return this.seed();
  }

  /** The account and the demo line, created once; kept across restarts. */
  async seed(): Promise<void> {
    await this.db.transaction(async (m) => {
      await m.query('INSERT INTO keepgo_sandbox_account (id, balance_usd) VALUES (1, $1) ON CONFLICT DO NOTHING', [
        SANDBOX_OPENING_BALANCE_USD,
      ]);
      const inserted: unknown[] = await m.query(
        `INSERT INTO keepgo_sandbox_lines (iccid, msisdn, lpa_code, bundle_id, status, notes)
         VALUES ($1, $2, $3, $4, 'Activated', '') ON CONFLICT DO NOTHING RETURNING iccid`,
        [KEEPGO_DEMO_ICCID, '+15550100', sandboxLpaCode('DEMO0-00000-00000-00001'), DEMO_BUNDLE_ID],
      );
      if (inserted.length > 0) await this.addData(m, KEEPGO_DEMO_ICCID, 1024, 30);
    });
  }

  bundles(): EmulatorAnswer {
    return ok({ bundles: SANDBOX_BUNDLES });
  }

  bundle(id: number): EmulatorAnswer {
    const bundle = SANDBOX_BUNDLES.find((b) => b.id === id);
    return bundle ? ok({ bundle }) : refuse(404, 'Bundle not found');
  }

  async lines(page: number, perPage: number): Promise<EmulatorAnswer> {
    const size = Math.min(Math.max(Math.trunc(perPage) || 25, 1), 100);
    const current = Math.max(Math.trunc(page) || 1, 1);
    const repo = this.db.getRepository(KeepGoSandboxLine);
    const [lines, total] = await repo.findAndCount({ order: { createdAt: 'DESC', iccid: 'DESC' }, skip: (current - 1) * size, take: size });
    const bundles = await this.dataOf(
      this.db.manager,
      lines.map((l) => l.iccid),
    );
    const from = lines.length > 0 ? (current - 1) * size + 1 : null;
    return ok({
      sim_cards: {
        from,
        to: from === null ? null : from + lines.length - 1,
        last_page: Math.max(1, Math.ceil(total / size)),
        per_page: size,
        total,
        current_page: current,
        items: lines.map((line) => this.card(line, bundles.get(line.iccid) ?? [])),
      },
    });
  }

  async details(iccid: string): Promise<EmulatorAnswer> {
    const line = await this.db.getRepository(KeepGoSandboxLine).findOneBy({ iccid });
    if (!line) return LINE_NOT_FOUND();
    const data = (await this.dataOf(this.db.manager, [iccid])).get(iccid) ?? [];
    const card: KeepGoDetailedSimCard = {
      ...this.card(line, data),
      msisdn: line.msisdn,
      lpa_code: line.lpaCode,
      bundle_id: line.bundleId,
    };
    return ok({ sim_card: { ...card, auto_refill_turned_on: false, auto_refill_list: this.refillsFor(line) } });
  }

  async availableRefills(iccid: string): Promise<EmulatorAnswer> {
    const line = await this.db.getRepository(KeepGoSandboxLine).findOneBy({ iccid });
    if (!line) return LINE_NOT_FOUND();
    return ok({ available_refills: this.refillsFor(line) });
  }

  async refill(iccid: string, request: Partial<KeepGoRefillRequest>, idempotencyKey: string | null): Promise<EmulatorAnswer> {
    const amountMb = Number(request.amount_mb);
    const amountDays = request.amount_days === null || request.amount_days === undefined ? null : Number(request.amount_days);
    if (!Number.isInteger(amountMb) || amountMb <= 0 || (amountDays !== null && !Number.isInteger(amountDays))) {
      return refuse(422, 'amount_mb and amount_days are required numbers');
    }
    return this.once('refill', iccid, { amount_mb: amountMb, amount_days: amountDays }, idempotencyKey, async (m) => {
      const line = await m.getRepository(KeepGoSandboxLine).findOne({ where: { iccid }, lock: { mode: 'pessimistic_write' } });
      if (!line) return { answer: LINE_NOT_FOUND() };
      const options = this.refillsFor(line);
      if (options.length === 0) return { answer: NO_REFILLS() };
      const option = options.find((o) => o.amount_mb === amountMb && o.amount_days === amountDays);
      if (!option) return { answer: refuse(422, 'No suitable refill: amount_mb and amount_days must be one of the available refills') };
      if (!(await this.charge(m, option.price_usd))) return { answer: refuse(402, 'Insufficient balance') };
      const dataBundleId = await this.addData(m, iccid, option.amount_mb, option.amount_days);
      return { answer: ok({ data_bundle_id: dataBundleId, transaction_id: transactionId() }), price: option.price_usd };
    });
  }

  async createLine(request: Partial<KeepGoCreateLineRequest>, idempotencyKey: string | null): Promise<EmulatorAnswer> {
    const bundleId = Number(request.bundle_id);
    const refillMb = Number(request.refill_mb);
    const refillDays = request.refill_days === null || request.refill_days === undefined ? null : Number(request.refill_days);
    if (!Number.isInteger(bundleId) || !Number.isInteger(refillMb)) return refuse(422, 'bundle_id and refill_mb are required numbers');
    if (request.count !== undefined && Number(request.count) !== 1) return refuse(422, 'count must be 1 in the sandbox');
    const bundle = SANDBOX_BUNDLES.find((b) => b.id === bundleId);
    if (!bundle) return refuse(422, `No suitable bundle: bundle ${bundleId} does not exist`);
    const option = bundle.refills.find((o) => o.amount_mb === refillMb && o.amount_days === refillDays);
    if (!option) return refuse(422, 'No suitable refill: refill MB and refill Days must use one of the values from /bundles');
    const normalized = { bundle_id: bundleId, refill_mb: refillMb, refill_days: refillDays };
    return this.once('create', null, normalized, idempotencyKey, async (m) => {
      if (!(await this.charge(m, option.price_usd))) return { answer: refuse(402, 'Insufficient balance') };
      const lpaCode = newSandboxLpaCode();
      let iccid = '';
      for (let inserted = false; !inserted;) {
        iccid = newSandboxIccid();
        const rows: unknown[] = await m.query(
          `INSERT INTO keepgo_sandbox_lines (iccid, msisdn, lpa_code, bundle_id, status, notes)
           VALUES ($1, NULL, $2, $3, 'Registered', '') ON CONFLICT DO NOTHING RETURNING iccid`,
          [iccid, lpaCode, bundle.id],
        );
        inserted = rows.length > 0;
      }
      const dataBundleId = await this.addData(m, iccid, option.amount_mb, option.amount_days);
      return {
        answer: ok({ sim_card: { iccid, lpa_code: lpaCode }, transaction_id: transactionId(), data_bundle_id: dataBundleId }),
        price: option.price_usd,
        iccid,
      };
    });
  }

  async updateNotes(iccid: string, notes: unknown): Promise<EmulatorAnswer> {
    if (typeof notes !== 'string' || notes.length > MAX_NOTES)
      return refuse(422, `notes must be a string of at most ${MAX_NOTES} characters`);
    const { affected } = await this.db.getRepository(KeepGoSandboxLine).update({ iccid }, { notes });
    return affected ? ok({ message: 'Notes were updated' }) : LINE_NOT_FOUND();
  }

  /** A date today or earlier deactivates the line now, as KeepGo does. */
  async setDeactivationDate(iccid: string, date: unknown): Promise<EmulatorAnswer> {
    if (typeof date !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(Date.parse(date))) {
      return refuse(422, 'deactivation_date must be YYYY-MM-DD');
    }
    const now = date <= new Date().toISOString().slice(0, 10);
    const { affected } = await this.db
      .getRepository(KeepGoSandboxLine)
      .update({ iccid }, now ? { deactivationDate: date, status: 'Deactivated' } : { deactivationDate: date });
    return affected ? ok({ message: now ? 'Line was deactivated' : 'Deactivation date was set' }) : LINE_NOT_FOUND();
  }

  async accountBalance(): Promise<EmulatorAnswer> {
    const [row] = await this.db.query('SELECT balance_usd::text AS balance FROM keepgo_sandbox_account WHERE id = 1');
    return ok({ account_balance: row?.balance ?? '0.00' });
  }

  /** A phone installing the line (Activated) and/or spending `usedMb` of its data; false when there is no such line. */
  async useLine(iccid: string, use: { installed: boolean; usedMb: number }): Promise<boolean> {
    const line = await this.db.getRepository(KeepGoSandboxLine).findOneBy({ iccid });
    if (!line) return false;
    if (use.installed && line.status === 'Registered') await this.db.getRepository(KeepGoSandboxLine).update({ iccid }, { status: 'Activated' });
    // Data spent the one way the emulator spends it: from the active bundles, oldest first (consume).
    if (use.usedMb > 0) await this.consume(iccid, use.usedMb);
    return true;
  }

  /** Sets the account balance (a test reaches "insufficient balance" this way). */
  async setBalance(usd: number): Promise<void> {
    await this.db.query(
      'INSERT INTO keepgo_sandbox_account (id, balance_usd) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET balance_usd = EXCLUDED.balance_usd',
      [usd.toFixed(2)],
    );
  }

  /**
   * Uses `mb` of a line's data, as traffic on the phone would: taken from its active (unexpired)
   * data bundles, oldest first, none below zero. Answers the line's counters afterwards, or null
   * for an unknown line.
   */
  async consume(iccid: string, mb: number): Promise<{ iccid: string; allowed_usage_kb: number | null; remaining_usage_kb: number | null } | null> {
    return this.db.transaction(async (m) => {
      const line = await m.getRepository(KeepGoSandboxLine).findOne({ where: { iccid }, lock: { mode: 'pessimistic_write' } });
      if (!line) return null;
      let left = mb * 1024;
      const now = Date.now();
      const bundles = (await this.dataOf(m, [iccid])).get(iccid) ?? [];
      for (const b of bundles) {
        if (left <= 0) break;
        if (b.expireAt !== null && b.expireAt.getTime() <= now) continue;
        const take = Math.min(left, Number(b.remainingUsageKb));
        if (take <= 0) continue;
        await m.getRepository(KeepGoSandboxDataBundle).update({ id: b.id }, { remainingUsageKb: String(Number(b.remainingUsageKb) - take) });
        b.remainingUsageKb = String(Number(b.remainingUsageKb) - take);
        left -= take;
      }
      const card = this.card(line, bundles);
      return { iccid, allowed_usage_kb: card.allowed_usage_kb, remaining_usage_kb: card.remaining_usage_kb };
    });
  }

  // ── internals ──────────────────────────────────────────────────────────────────────────

  /**
   * Runs a paid operation once per Idempotency-Key: concurrent requests with one key queue on an
   * advisory lock; a later one gets the first answer back, a different request with a used key is
   * refused (as Stripe does). Refusals are not stored, so they can be retried.
   */
  private once(
    kind: 'create' | 'refill',
    iccid: string | null,
    request: Record<string, unknown>,
    idempotencyKey: string | null,
    work: (m: EntityManager) => Promise<{ answer: EmulatorAnswer; price?: number; iccid?: string }>,
  ): Promise<EmulatorAnswer> {
    return this.db.transaction(async (m) => {
      const key = idempotencyKey?.slice(0, 255) || null;
      if (key) {
        await m.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`keepgo-sandbox:${key}`]);
        const earlier = await m.getRepository(KeepGoSandboxTransaction).findOneBy({ idempotencyKey: key });
        if (earlier) {
          const same =
            earlier.kind === kind &&
            (iccid === null || earlier.iccid === iccid) &&
            JSON.stringify(earlier.request) === JSON.stringify(request);
          return same ? { status: 200, body: earlier.response } : refuse(422, 'Idempotency-Key was already used for a different request');
        }
      }
      const { answer, price, iccid: created } = await work(m);
      if (answer.status === 200 && price !== undefined) {
        await m.query(
          `INSERT INTO keepgo_sandbox_transactions (id, kind, iccid, idempotency_key, request, response, price_usd)
           VALUES ($1, $2, $3, $4, $5, $6, $7)`,
          [answer.body.transaction_id, kind, created ?? iccid, key, JSON.stringify(request), JSON.stringify(answer.body), price.toFixed(2)],
        );
      }
      return answer;
    });
  }

  private async charge(m: EntityManager, priceUsd: number): Promise<boolean> {
    // TypeORM answers an UPDATE with [rows, affected count].
    const [, affected]: [unknown[], number] = await m.query(
      'UPDATE keepgo_sandbox_account SET balance_usd = balance_usd - $1 WHERE id = 1 AND balance_usd >= $1',
      [priceUsd.toFixed(2)],
    );
    return affected > 0;
  }

  private async addData(m: EntityManager, iccid: string, amountMb: number, days: number | null): Promise<number> {
    const now = new Date();
    const kb = String(amountMb * 1024);
    const saved = await m.getRepository(KeepGoSandboxDataBundle).save({
      iccid,
      allowedUsageKb: kb,
      remainingUsageKb: kb,
      validityDays: days,
      assignedAt: now,
      expireAt: days === null ? null : new Date(now.getTime() + days * DAY_MS),
    });
    return saved.id;
  }

  private refillsFor(line: KeepGoSandboxLine): KeepGoRefillOption[] {
    if (line.status === 'Deactivated') return [];
    return (SANDBOX_BUNDLES.find((b) => b.id === line.bundleId) as KeepGoBundle | undefined)?.refills ?? [];
  }

  private async dataOf(m: EntityManager, iccids: string[]): Promise<Map<string, KeepGoSandboxDataBundle[]>> {
    const byLine = new Map<string, KeepGoSandboxDataBundle[]>();
    if (iccids.length === 0) return byLine;
    const rows = await m.getRepository(KeepGoSandboxDataBundle).find({ where: { iccid: In(iccids) }, order: { id: 'ASC' } });
    for (const row of rows) byLine.set(row.iccid, [...(byLine.get(row.iccid) ?? []), row]);
    return byLine;
  }

  private card(line: KeepGoSandboxLine, data: KeepGoSandboxDataBundle[]): KeepGoSimCard {
    const now = Date.now();
    const bundles: KeepGoDataBundle[] = data.map((b) => {
      const expired = b.expireAt !== null && b.expireAt.getTime() <= now;
      const finished = Number(b.remainingUsageKb) <= 0;
      return {
        id: b.id,
        status: expired ? 'Expired' : finished ? 'Finished' : 'Active',
        allowed_usage_kb: Number(b.allowedUsageKb),
        active_kb: Number(b.allowedUsageKb) - Number(b.remainingUsageKb),
        remaining_usage_kb: Number(b.remainingUsageKb),
        validity: b.validityDays,
        assigned_at: keepGoTime(b.assignedAt),
        activated_at: line.status === 'Activated' ? keepGoTime(b.assignedAt) : null,
        terminated_at: null,
        expire_at: keepGoTime(b.expireAt),
      };
    });
    const active = data.filter((b) => b.expireAt === null || b.expireAt.getTime() > now);
    const days = active.filter((b) => b.expireAt !== null).map((b) => Math.ceil((b.expireAt!.getTime() - now) / DAY_MS));
    const bundle = SANDBOX_BUNDLES.find((b) => b.id === line.bundleId);
    return {
      iccid: line.iccid,
      status: line.status,
      notes: line.notes,
      deactivation_date: line.deactivationDate,
      allowed_usage_kb: active.reduce((sum, b) => sum + Number(b.allowedUsageKb), 0),
      remaining_usage_kb: active.reduce((sum, b) => sum + Number(b.remainingUsageKb), 0),
      remaining_days: days.length > 0 ? Math.max(...days) : null,
      bundle: bundle?.name ?? null,
      data_bundles: bundles,
    };
  }
}

const transactionId = () => `KG${randomBytes(8).toString('hex').toUpperCase()}`;
