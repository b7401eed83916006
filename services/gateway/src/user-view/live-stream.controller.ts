import { Controller, Get, Inject, Logger, Req, Res, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { ErrorReason } from '@esim/contracts';
import { CONFIG, AppError } from '@esim/platform';
import { sessionAbsoluteMs, type GatewayConfig } from '../config';
import { AuthGuard, CurrentUserId } from '../sessions/auth.guard';
import { sessionRef } from '../sessions/session.service';
import { clientNetwork } from '../rate-limits/client-network';
import { LiveHub, type LiveStreamCap } from './live-hub';
import { LiveStream } from './live-stream';

/** The declared reason of each cap's 429 (the page reconnects later whichever it is). */
const STREAM_CAP_REASON = {
  user: 'too_many_streams',
  address: 'too_many_streams_from_address',
  gateway: 'too_many_streams_on_server',
} as const satisfies Record<LiveStreamCap, ErrorReason>;

/**
 * `GET /api/events`: the signed-in user's live stream (server-sent events), one per open page.
 * The session cookie authenticates it like any /api request. A GET changes nothing, so the CSRF
 * guard lets it through; but an event stream is read, not just sent, so a page on another origin
 * (Origin, or Sec-Fetch-Site: cross-site) is refused here as well — SameSite=Lax already keeps
 * the cookie off such requests, this keeps the answer off them too.
 */
@Controller('api')
export class LiveStreamController {
  private readonly log = new Logger('LiveHub');
  private readonly ownOrigin: string;

  constructor(
    private readonly hub: LiveHub,
    @Inject(CONFIG) private readonly config: GatewayConfig,
  ) {
    this.ownOrigin = new URL(config.PUBLIC_URL).origin;
  }

  @Get('events')
  @UseGuards(AuthGuard)
  async events(@Req() req: Request, @Res() res: Response, @CurrentUserId() userId: string): Promise<void> {
    const origin = req.headers.origin;
    if ((origin && origin !== this.ownOrigin) || req.headers['sec-fetch-site'] === 'cross-site') {
      throw new AppError('csrf_origin', 'Cross-origin requests are not allowed.');
    }
    const network = clientNetwork(req);
    const cap = this.hub.refusal(userId, network);
    if (cap) {
      this.log.warn({ cap, ip: req.ip }, 'live stream refused');
      throw new AppError(STREAM_CAP_REASON[cap], 'Too many open live streams. Close a tab and try again.');
    }

    const signedInAt = req.session.passport?.user?.signedInAt ?? Date.now();
    const stream = new LiveStream(userId, sessionRef(req.sessionID), req.sessionID, signedInAt + sessionAbsoluteMs(this.config), res, network);
    res.on('close', () => this.hub.detach(stream));
    // The socket stays open for as long as the page does; no idle timeout of the server applies.
    req.socket.setTimeout(0);
    req.socket.setNoDelay(true);
    stream.start();
    try {
      await this.hub.attach(stream);
    } catch (err) {
      this.log.warn(`could not open ${userId}'s stream: ${(err as Error).message}`);
      stream.close();
    }
  }
}
