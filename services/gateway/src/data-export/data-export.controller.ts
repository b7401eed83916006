import { Controller, Get, Req, Res, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import {
  CreditClaimRpc,
  EsimRpc,
  IdentityRpc,
  NotificationsRpc,
  PasskeyRpc,
  PaymentsRpc,
  RedemptionRpc,
  ReferralRpc,
  RewardsRpc,
  STATEMENT_PAGE_MAX,
  StatementEntry,
  UserExport,
} from '@esim/contracts';
import { RpcClient } from '@esim/platform';
import { AuthGuard, CurrentUserId } from '../sessions/auth.guard';
import { SessionService } from '../sessions/session.service';

/**
 * "Download my data" (`GET /api/user/export`, docs/accounts.md, "Your data"): everything the
 * product holds about the caller, asked of each service that holds it as the acting user (each
 * answers only that user's rows), in one JSON file. A service that does not answer fails the
 * export (503) rather than give an incomplete one.
 */
@Controller('api/user')
@UseGuards(AuthGuard)
export class DataExportController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly sessions: SessionService,
  ) {}

  @Get('export')
  async export(@Req() req: Request, @Res() res: Response, @CurrentUserId() userId: string): Promise<void> {
    const [
      { user },
      { passkeys },
      balance,
      statement,
      { tasks },
      { redemptions },
      { gifts },
      { lines },
      { purchases },
      { emails },
      sessions,
      { claims },
      referralProfile,
      { referrals },
    ] = await Promise.all([
      this.rpc.call(IdentityRpc.getVersionedUser, {}),
      this.rpc.call(PasskeyRpc.list, {}),
      this.rpc.call(RewardsRpc.getBalance, {}),
      this.statement(),
      this.rpc.call(RewardsRpc.listTasks, {}),
      this.rpc.call(RedemptionRpc.listRedemptions, {}),
      this.rpc.call(EsimRpc.listGifts, {}),
      this.rpc.call(EsimRpc.listLines, {}),
      this.rpc.call(PaymentsRpc.listEsimPurchases, {}),
      this.rpc.call(NotificationsRpc.listSentEmails, {}),
      this.sessions.list(userId, req.sessionID),
      this.rpc.call(CreditClaimRpc.list, {}),
      this.rpc.call(IdentityRpc.getReferralProfile, {}),
      this.rpc.call(ReferralRpc.list, {}),
    ]);
    const body: UserExport = {
      exportedAt: new Date().toISOString(),
      account: { ...user, passkeys },
      sessions,
      points: { balance: balance.points, statement },
      tasks,
      redemptions,
      creditClaims: claims,
      referrals: {
        code: referralProfile.code,
        invited: referrals.map((r) => ({
          status: r.status,
          voidReason: r.voidReason,
          pointsForYou: r.pointsForYou,
          invitedAt: r.createdAt,
        })),
      },
      gifts,
      esimLines: lines,
      purchases,
      emailsSent: emails,
    };
    const day = body.exportedAt.slice(0, 10);
    res.status(200);
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="dados-gratis-${day}.json"`);
    res.setHeader('Cache-Control', 'no-store');
    res.end(JSON.stringify(body, null, 2));
  }

  /** The whole points statement, page after page (newest first). */
  private async statement(): Promise<StatementEntry[]> {
    const entries: StatementEntry[] = [];
    let before: string | undefined;
    do {
      const page = await this.rpc.call(RedemptionRpc.getPointsStatement, { before, limit: STATEMENT_PAGE_MAX });
      entries.push(...page.entries);
      before = page.nextCursor ?? undefined;
    } while (before);
    return entries;
  }
}
