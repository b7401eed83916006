import { Controller, Get, UseGuards } from '@nestjs/common';
import { EsimLinesResponse, EsimRpc, GiftsResponse } from '@esim/contracts';
import { RpcClient } from '@esim/platform';
import { AuthGuard, CurrentUserId } from '../sessions/auth.guard';
import { QrCodes } from './qr-codes';

/** What the user holds: data gifts to claim, and the eSIM lines redemptions and gifts delivered. */
@Controller('api')
@UseGuards(AuthGuard)
export class WalletController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly qr: QrCodes,
  ) {}

  /** Unclaimed admin gifts (shown on the dashboard until claimed) and the GB delivered so far. */
  @Get('gifts')
  async gifts(@CurrentUserId() userId: string): Promise<GiftsResponse> {
    const [{ pendingGifts }, { dataGiftedGB }] = await Promise.all([
      this.rpc.call(EsimRpc.listPendingGifts, { userId }),
      this.rpc.call(EsimRpc.getGiftSummary, { userId }),
    ]);
    return { dataGiftedGB, pendingGifts };
  }

  @Get('esim-lines')
  async lines(@CurrentUserId() userId: string): Promise<EsimLinesResponse> {
    const { lines } = await this.rpc.call(EsimRpc.listLines, { userId });
    return { lines: await Promise.all(lines.map(async (l) => ({ ...l, qrCode: l.lpaCode ? await this.qr.dataUrl(l.lpaCode) : null }))) };
  }
}
