import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { OfferwallId, PostbackAnswer } from '@esim/contracts';
import { AppError, CONFIG } from '@esim/platform';
import type { WebhooksConfig } from '../config';
import { OfferwallSettings, Wall } from '../offerwalls/offerwall-settings';
import { EmulatedPostback } from '../postbacks/providers/offerwall-provider';
import { WebhookTransactions } from '../postbacks/webhook-transactions.service';
import { offerOfTransaction, SAMPLE_OFFERS, sandboxTransactionId } from './sample-offers';
import { renderWallPage } from './wall-page';

export interface SandboxVisit {
  provider: OfferwallId;
  /** The signed-in user. */
  userId: string;
  /** The id the wall was opened with; it must be the signed-in user's. */
  uid: string;
}

/** The emulated provider's documentation address for user IPs (TEST-NET-3). */
const EMULATED_USER_IP = '203.0.113.7';
const SEND_TIMEOUT_MS = 10_000;

/**
 * The local stand-in for an offer-wall provider when its credentials are absent: a page of sample
 * offers, and a server that, like the real one, calls the postback URL with a signed postback when
 * an offer is completed or reversed. Nothing is ever credited from the browser.
 *
 * It signs the public callback URL (PUBLIC_URL/webhooks/offerwalls/<wall>, what a provider is
 * configured with, and what BitLabs' signature covers) but delivers it to SANDBOX_POSTBACK_URL —
 * by default this service itself — since PUBLIC_URL is the users' address and need not lead back
 * here from where the service runs (a container, say).
 */
@Injectable()
export class OfferwallEmulator {
  private readonly log = new Logger('OfferwallSandbox');

  constructor(
    private readonly db: DataSource,
    private readonly settings: OfferwallSettings,
    private readonly transactions: WebhookTransactions,
    private readonly http: HttpAdapterHost,
    @Inject(CONFIG) private readonly config: WebhooksConfig,
  ) {}

  async page(visit: SandboxVisit, notice?: string): Promise<string> {
    const wall = this.wallFor(visit);
    const paid = await this.transactions.paidTo(this.db.manager, visit.userId, visit.provider, 20);
    return renderWallPage({ provider: visit.provider, name: wall.provider.name, uid: visit.uid, offers: SAMPLE_OFFERS, paid, notice });
  }

  complete(visit: SandboxVisit, offerId: string): Promise<{ transactionId: string; answer: PostbackAnswer }> {
    const wall = this.wallFor(visit);
    const offer = SAMPLE_OFFERS.find((o) => o.id === offerId);
    if (!offer) throw new AppError('not_found', 'No such sample offer.');
    return this.send(wall, {
      userId: visit.userId,
      transactionId: sandboxTransactionId(offer, randomUUID()),
      action: 'credit',
      offer,
      userIp: EMULATED_USER_IP,
    });
  }

  /** Sends the reversal of an emulated transaction; the endpoint refuses one it never credited to this user. */
  reverse(visit: SandboxVisit, transactionId: string): Promise<{ transactionId: string; answer: PostbackAnswer }> {
    const wall = this.wallFor(visit);
    const offer = offerOfTransaction(transactionId);
    if (!offer) throw new AppError('not_found', 'This wall paid no such transaction.');
    return this.send(wall, { userId: visit.userId, transactionId, action: 'reverse', offer, userIp: EMULATED_USER_IP });
  }

  /** Sends the postback server to server, as the real provider would. */
  private async send(wall: Wall, postback: EmulatedPostback): Promise<{ transactionId: string; answer: PostbackAnswer }> {
    const path = `/webhooks/offerwalls/${wall.provider.id}`;
    const publicOrigin = new URL(this.config.PUBLIC_URL).origin;
    const signed = wall.provider.sign(wall.credentials, postback, `${publicOrigin}${path}`);
    const target = `${this.postbackOrigin()}${signed.slice(publicOrigin.length)}`;
    let res: Response;
    try {
      res = await fetch(target, {
        headers: { 'user-agent': `${wall.provider.name} sandbox emulator` },
        signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
      });
    } catch (err) {
      this.log.error(`${wall.provider.name} sandbox postback to ${target.split('?')[0]} failed: ${(err as Error).message}`);
      throw new AppError('bad_gateway', 'The sandbox wall could not reach the postback URL: is SANDBOX_POSTBACK_URL right?');
    }
    const answer = { httpStatus: res.status, body: await res.text() };
    this.log.log(`${wall.provider.name} sandbox sent a ${postback.action} postback for ${postback.transactionId}: HTTP ${answer.httpStatus}`);
    return { transactionId: postback.transactionId, answer };
  }

  /** SANDBOX_POSTBACK_URL, else this service on loopback at the port it listens on. */
  private postbackOrigin(): string {
    if (this.config.SANDBOX_POSTBACK_URL) return this.config.SANDBOX_POSTBACK_URL.replace(/\/$/, '');
    const { port } = this.http.httpAdapter.getHttpServer().address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  private wallFor({ provider, userId, uid }: SandboxVisit): Wall {
    const wall = this.settings.get(provider);
    if (!wall?.sandbox) throw new AppError('not_found', 'This offer wall is not emulated here.');
    if (wall.provider.externalUserId(wall.credentials, userId) !== uid) throw new AppError('forbidden', 'This wall was opened for another user.');
    return wall;
  }
}
