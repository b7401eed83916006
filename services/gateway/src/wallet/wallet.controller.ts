import { Controller, Get, UseGuards } from '@nestjs/common';
import { EsimLinesResponse, EsimRpc, GiftsResponse } from '@esim/contracts';
import { RpcClient } from '@esim/platform';
import { AuthGuard } from '../sessions/auth.guard';
import { QrCodes } from '../redemptions/qr-codes';

/** What the signed-in user (the RPCs' acting user) holds: data gifts to claim, and the eSIM lines redemptions and gifts delivered. */
@Controller('api')
@UseGuards(AuthGuard)
export class WalletController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly qr: QrCodes,
  ) {}

  /** Unclaimed admin gifts (the dashboard's gift card until claimed), the GB delivered so far, and every admin gift (the history). */
  @Get('gifts')
  async gifts(): Promise<GiftsResponse> {
    const [{ pendingGifts }, { dataGiftedGB }, { gifts }] = await Promise.all([
      this.rpc.call(EsimRpc.listPendingGifts, {}),
      this.rpc.call(EsimRpc.getGiftSummary, {}),
      this.rpc.call(EsimRpc.listAdminGifts, {}),
    ]);
    return { dataGiftedGB, pendingGifts, gifts };
  }

  @Get('esim-lines')
  async lines(): Promise<EsimLinesResponse> {
    const { lines } = await this.rpc.call(EsimRpc.listLines, {});
    return { lines: await Promise.all(lines.map(async (l) => ({ ...l, qrCode: l.lpaCode ? await this.qr.dataUrl(l.lpaCode) : null }))) };
  }
}
