import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import {
  AdminCreditClaim,
  CreditClaim,
  CreditClaimDecision,
  CreditClaimRequest,
  OPEN_CLAIMS_PER_USER,
} from '@esim/contracts';
import { AppError, UnitOfWork } from '@esim/platform';
import { BalanceAnnouncements } from '../ledger/balance-announcements';
import { Ledger } from '../ledger/ledger';
import { CreditClaimEntity } from './credit-claim.entity';

const toClaim = (c: CreditClaimEntity): CreditClaim => ({
  id: c.id,
  wall: c.wall,
  wallUserId: c.wallUserId,
  offerName: c.offerName,
  completedOn: c.completedOn,
  note: c.note,
  status: c.status,
  points: c.points,
  rejectReason: c.rejectReason,
  createdAt: c.createdAt.toISOString(),
  decidedAt: c.decidedAt?.toISOString() ?? null,
});
const toAdminClaim = (c: CreditClaimEntity): AdminCreditClaim => ({ ...toClaim(c), userId: c.userId, decidedBy: c.decidedBy });

/**
 * Missing-credit claims (docs/earning.md, "Missing credit"): kept for the user, listed for the
 * operator queue, and decided once. A credit goes through the ledger with the claim's id as its
 * reference, so the database pays one claim once; the claim's row lock makes the second of two
 * admins deciding at once wait and then find it decided (409 claim_already_decided).
 */
@Injectable()
export class CreditClaims {
  constructor(
    private readonly db: DataSource,
    private readonly uow: UnitOfWork,
    private readonly ledger: Ledger,
    private readonly balances: BalanceAnnouncements,
  ) {}

  async file(userId: string, request: CreditClaimRequest & { wallUserId: string }): Promise<CreditClaim> {
    return this.uow.run(async (tx) => {
      const m = tx.manager;
      // Filing takes turns per user (the account row), so the open-claim limit holds under double clicks.
      await this.balances.lock(m, [userId]);
      const open = await m.count(CreditClaimEntity, { where: { userId, status: 'open' } });
      if (open >= OPEN_CLAIMS_PER_USER)
        throw new AppError('too_many_open_claims', `You already have ${open} open claims; we answer them first.`, { details: { open, limit: OPEN_CLAIMS_PER_USER } });
      const claim = m.create(CreditClaimEntity, {
        id: randomUUID(),
        userId,
        wall: request.wall,
        wallUserId: request.wallUserId,
        offerName: request.offerName,
        completedOn: request.completedOn,
        note: request.note || null,
        status: 'open',
      });
      return toClaim(await m.save(claim));
    });
  }

  async listFor(userId: string): Promise<CreditClaim[]> {
    const rows = await this.db.manager.find(CreditClaimEntity, { where: { userId }, order: { createdAt: 'DESC' }, take: 100 });
    return rows.map(toClaim);
  }

  /** Open claims, the oldest first: the operator queue's part. */
  async listOpen(limit: number): Promise<AdminCreditClaim[]> {
    const rows = await this.db.manager.find(CreditClaimEntity, { where: { status: 'open' }, order: { createdAt: 'ASC' }, take: limit });
    return rows.map(toAdminClaim);
  }

  async decide(claimId: string, adminId: string, decision: CreditClaimDecision): Promise<AdminCreditClaim> {
    return this.uow.run(async (tx) => {
      const m = tx.manager;
      const claim = await this.lockOpen(m, claimId);
      claim.decidedBy = adminId;
      claim.decidedAt = new Date();
      if (decision.decision === 'reject') {
        claim.status = 'rejected';
        claim.rejectReason = decision.reason;
        return toAdminClaim(await m.save(claim));
      }
      await this.balances.lock(m, [claim.userId]);
      const { transfer, created } = await this.ledger.credit(m, {
        kind: 'claim_credit',
        from: 'claims',
        userId: claim.userId,
        amount: decision.points,
        reference: claim.id,
      });
      // The row lock makes this unreachable; the ledger's unique reference is the rule whatever the code does.
      if (!created) throw new AppError('claim_already_decided', 'This claim was already credited.', { details: { status: 'credited' } });
      claim.status = 'credited';
      claim.points = decision.points;
      claim.transferId = transfer.id;
      const saved = await m.save(claim);
      await this.balances.announce(tx, [claim.userId]);
      return toAdminClaim(saved);
    });
  }

  private async lockOpen(m: EntityManager, claimId: string): Promise<CreditClaimEntity> {
    const claim = await m.findOne(CreditClaimEntity, { where: { id: claimId }, lock: { mode: 'pessimistic_write' } });
    if (!claim) throw new AppError('credit_claim_not_found', 'No such claim.');
    if (claim.status !== 'open')
      throw new AppError('claim_already_decided', `This claim was already ${claim.status}.`, { details: { status: claim.status } });
    return claim;
  }
}
