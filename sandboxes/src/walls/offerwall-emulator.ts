import { randomUUID } from 'node:crypto';
import { BadGatewayException, ForbiddenException, Inject, Injectable, Logger, NotFoundException, UnauthorizedException } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { OfferwallId, PostbackAnswer } from '@esim/contracts';
import { OFFERWALL_PROVIDERS } from '@esim/webhooks/dist/postbacks/providers';
import type { EmulatedPostback } from '@esim/webhooks/dist/postbacks/providers/offerwall-provider';
import { sandboxCredentials } from '@esim/webhooks/dist/offerwalls/sandbox-credentials';
import type { SandboxesConfig } from '../config';
import { SANDBOXES_CONFIG } from '../sandboxes.tokens';
import { offerOfTransaction, SAMPLE_OFFERS, sandboxTransactionId } from './sample-offers';
import { PaidTransaction, renderWallPage } from './wall-page';

export interface SandboxVisit {
  provider: OfferwallId;
  /** The signed-in user, as the gateway says (SANDBOX_SIGNED_IN_USER_HEADER); undefined for a visitor. */
  userId: string | undefined;
  /** The id the wall was opened with; it must be the signed-in user's. */
  uid: string;
}

/** The emulated provider's documentation address for user IPs (TEST-NET-3). */
const EMULATED_USER_IP = '203.0.113.7';
const SEND_TIMEOUT_MS = 10_000;
const PAID_SHOWN = 20;

/**
 * The stand-in for an offer-wall provider whose credentials are absent: a page of sample offers,
 * and a server that, like the real one, calls the postback URL with a signed postback when an
 * offer is completed or reversed. Nothing is ever credited from the browser. It signs with the
 * public sandbox credentials and each provider's own scheme (services/webhooks/src/postbacks/
 * providers: the one implementation of each, which the ingestion service verifies with), and
 * remembers what it paid in its own schema (sandbox_walls), as a provider does.
 *
 * It signs the public callback URL (PUBLIC_URL/webhooks/offerwalls/<wall>, what a provider is
 * configured with, and what BitLabs' signature covers) but delivers it to OFFERWALLS_POSTBACK_URL
 * (default PUBLIC_URL), since PUBLIC_URL is the users' address and need not lead back from where
 * this process runs (a container, say).
 */
@Injectable()
export class OfferwallEmulator {
  private readonly log = new Logger('OfferwallSandbox');

  constructor(
    private readonly db: DataSource,
    @Inject(SANDBOXES_CONFIG) private readonly config: SandboxesConfig,
  ) {}

  async page(visit: SandboxVisit, notice?: string): Promise<string> {
    this.check(visit);
    const rows: Array<{ transaction_id: string; points: number; reversed: boolean }> = await this.db.query(
      'SELECT transaction_id, points, reversed FROM paid_transactions WHERE provider = $1 AND uid = $2 ORDER BY created_at DESC LIMIT $3',
      [visit.provider, visit.uid, PAID_SHOWN],
    );
    const paid: PaidTransaction[] = rows.map((r) => ({ transactionId: r.transaction_id, points: r.points, reversed: r.reversed }));
    const { name } = OFFERWALL_PROVIDERS[visit.provider];
    return renderWallPage({ provider: visit.provider, name, uid: visit.uid, offers: SAMPLE_OFFERS, paid, notice });
  }

  async complete(visit: SandboxVisit, offerId: string): Promise<{ transactionId: string; answer: PostbackAnswer }> {
    const userId = this.check(visit);
    const offer = SAMPLE_OFFERS.find((o) => o.id === offerId);
    if (!offer) throw new NotFoundException('No such sample offer.');
    const postback: EmulatedPostback = { userId, transactionId: sandboxTransactionId(offer, randomUUID()), action: 'credit', offer, userIp: EMULATED_USER_IP };
    const sent = await this.send(visit.provider, postback);
    if (sent.answer.httpStatus === 200)
      await this.db.query('INSERT INTO paid_transactions (transaction_id, provider, uid, points) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING', [
        sent.transactionId,
        visit.provider,
        visit.uid,
        offer.points,
      ]);
    return sent;
  }

  /** Sends the reversal of an emulated transaction; the endpoint refuses one it never credited to this user. */
  async reverse(visit: SandboxVisit, transactionId: string): Promise<{ transactionId: string; answer: PostbackAnswer }> {
    const userId = this.check(visit);
    const offer = offerOfTransaction(transactionId);
    if (!offer) throw new NotFoundException('This wall paid no such transaction.');
    const sent = await this.send(visit.provider, { userId, transactionId, action: 'reverse', offer, userIp: EMULATED_USER_IP });
    if (sent.answer.httpStatus === 200)
      await this.db.query('UPDATE paid_transactions SET reversed = true WHERE transaction_id = $1 AND provider = $2 AND uid = $3', [
        transactionId,
        visit.provider,
        visit.uid,
      ]);
    return sent;
  }

  /** Sends the postback server to server, as the real provider would. */
  private async send(provider: OfferwallId, postback: EmulatedPostback): Promise<{ transactionId: string; answer: PostbackAnswer }> {
    const wall = OFFERWALL_PROVIDERS[provider];
    const path = `/webhooks/offerwalls/${wall.id}`;
    const publicOrigin = new URL(this.config.PUBLIC_URL).origin;
    const signed = wall.sign(sandboxCredentials(provider), postback, `${publicOrigin}${path}`);
    const target = `${this.postbackOrigin()}${signed.slice(publicOrigin.length)}`;
    let res: Response;
    try {
      res = await fetch(target, {
        headers: { 'user-agent': `${wall.name} sandbox emulator` },
        signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
      });
    } catch (err) {
      this.log.error(`${wall.name} sandbox postback to ${target.split('?')[0]} failed: ${(err as Error).message}`);
      throw new BadGatewayException('The sandbox wall could not reach the postback URL: is OFFERWALLS_POSTBACK_URL right?');
    }
    const answer = { httpStatus: res.status, body: await res.text() };
    this.log.log(`${wall.name} sandbox sent a ${postback.action} postback for ${postback.transactionId}: HTTP ${answer.httpStatus}`);
    return { transactionId: postback.transactionId, answer };
  }

  /** OFFERWALLS_POSTBACK_URL, else PUBLIC_URL (through the gateway, as a provider calls). */
  private postbackOrigin(): string {
    return new URL(this.config.OFFERWALLS_POSTBACK_URL ?? this.config.PUBLIC_URL).origin;
  }

  /** The signed-in user, whose uid on this wall must be the one it was opened with. */
  private check({ provider, userId, uid }: SandboxVisit): string {
    if (!userId) throw new UnauthorizedException('Please sign in to continue.');
    if (OFFERWALL_PROVIDERS[provider].externalUserId(sandboxCredentials(provider), userId) !== uid)
      throw new ForbiddenException('This wall was opened for another user.');
    return userId;
  }
}
