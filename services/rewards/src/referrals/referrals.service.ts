import { Inject, Injectable, Logger } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ReferralEntry, ReferralStatus, ReferralVoidReason, SignupReferral } from '@esim/contracts';
import { CONFIG, Tx } from '@esim/platform';
import type { RewardsConfig } from '../config';
import { BalanceAnnouncements } from '../ledger/balance-announcements';
import { Ledger } from '../ledger/ledger';

interface ReferralRow {
  friend_id: string;
  inviter_id: string;
  status: ReferralStatus;
  void_reason: ReferralVoidReason | null;
  bonus_points: number | null;
  created_at: Date;
}

/**
 * Referrals (docs/earning.md, "Referrals"; migration 1736300000001): recorded from the friend's
 * registration, paid when the friend qualifies. Each bonus is a ledger transfer whose reference
 * names the friend and the side, so each is paid once per friend whatever repeats.
 */
@Injectable()
export class Referrals {
  private readonly log = new Logger('Referrals');

  constructor(
    private readonly ledger: Ledger,
    private readonly balances: BalanceAnnouncements,
    @Inject(CONFIG) private readonly config: RewardsConfig,
  ) {}

  /** The friend's referral, as identity decided it at sign-up; a repeat changes nothing. */
  async record(m: EntityManager, friendId: string, referral: SignupReferral): Promise<void> {
    await m.query(
      `INSERT INTO referrals (friend_id, inviter_id, status, void_reason) VALUES ($1, $2, $3, $4) ON CONFLICT (friend_id) DO NOTHING`,
      [friendId, referral.inviterId, referral.voidReason ? 'void' : 'pending', referral.voidReason],
    );
  }

  /**
   * Pays both bonuses of a qualified friend's referral, once: the referral's row lock makes a
   * second payment wait and find it paid, and the ledger's unique references refuse a second
   * transfer whatever the code does. A side whose account is closed (deleted) gets nothing.
   */
  async pay(tx: Tx, friendId: string): Promise<void> {
    const m = tx.manager;
    const [referral]: ReferralRow[] = await m.query('SELECT * FROM referrals WHERE friend_id = $1 FOR UPDATE', [friendId]);
    if (referral?.status !== 'pending') return;
    const amount = this.config.REFERRAL_BONUS_POINTS;
    await this.balances.lock(m, [friendId, referral.inviter_id]);
    const paid: string[] = [];
    for (const [userId, side] of [
      [friendId, 'friend'],
      [referral.inviter_id, 'inviter'],
    ] as const) {
      const account = await this.ledger.userAccount(m, userId);
      if (!account || account.closed) {
        this.log.log(`referral of ${friendId}: no bonus for the ${side}, whose account is closed or missing`);
        continue;
      }
      await this.ledger.credit(m, { kind: 'referral_bonus', from: 'referrals', userId, amount, reference: `${friendId}:${side}` });
      paid.push(userId);
    }
    await m.query(`UPDATE referrals SET status = 'paid', bonus_points = $2, paid_at = now() WHERE friend_id = $1`, [friendId, amount]);
    await this.balances.announce(tx, paid);
  }

  async listFor(m: EntityManager, inviterId: string): Promise<ReferralEntry[]> {
    const rows: ReferralRow[] = await m.query('SELECT * FROM referrals WHERE inviter_id = $1 ORDER BY created_at DESC LIMIT 200', [inviterId]);
    return rows.map((r) => ({
      friendId: r.friend_id,
      status: r.status,
      voidReason: r.void_reason,
      pointsForYou: r.status === 'paid' ? (r.bonus_points ?? 0) : 0,
      createdAt: r.created_at.toISOString(),
    }));
  }
}
