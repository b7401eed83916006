import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ESIM_PROVIDER, EsimProvider, ProviderOperation } from '../keepgo/esim-provider';
import { EsimLines } from '../lines/esim-lines';
import { EsimProviderErrorCode, EsimProviderException } from '../keepgo/esim-provider.exception';
import { deliveredLine, DeliveredLine, ProvisioningOutcomes } from './provisioning-outcomes';
import { PROVISIONING_SETTINGS, ProvisioningSettings } from './provisioning-settings';
import type { Provisioning } from './provisioning.entity';

/** Refusals about the user's request: the points (or the gift) go back, the user is told why. */
const USER_REFUSALS: ReadonlySet<EsimProviderErrorCode> = new Set(['line_not_found', 'no_refills_available', 'no_suitable_offer', 'refused']);

/**
 * Definite, but about our account with the provider (no balance, credentials refused): the user
 * did nothing wrong and an operator can still deliver, so the points stay reserved.
 */
const OPERATOR_PROBLEMS: ReadonlySet<EsimProviderErrorCode> = new Set(['insufficient_balance', 'unauthorized']);

export const MANUAL_TRANSFER_MESSAGE =
  'We could not reach our eSIM provider right now. Your points are reserved and our support team will deliver your data manually within 24-48 hours.';

/** Why a delivery went to a person without a provider failure: an order whose fate KeepGo cannot tell. */
export const OUTCOME_UNKNOWN = 'outcome_unknown';

/**
 * One attempt at a claimed provisioning (a redemption, a gift claim or a card purchase): ask the
 * provider to do it (with our reference), then record the outcome. The provider is called outside
 * any transaction: the claim committed before, the outcome commits after.
 *
 * An attempt after an earlier one that ended without an outcome (a crash, a lost answer) first
 * asks the provider by our reference whether it already happened, so nothing is provisioned
 * twice. A new line is the one order KeepGo cannot always answer for: our reference reaches its
 * notes only after KeepGo's answer. So right before a line is ordered the attempt records
 * `order_sent_at` (committed); an attempt that finds it set and no line with our reference, or an
 * order whose answer was lost, goes to the operator queue instead of ordering again.
 */
@Injectable()
export class ProvisioningRunner {
  private readonly log = new Logger('Provisioning');
  private stopping = false;

  constructor(
    @Inject(ESIM_PROVIDER) private readonly provider: EsimProvider,
    @Inject(PROVISIONING_SETTINGS) private readonly settings: ProvisioningSettings,
    private readonly outcomes: ProvisioningOutcomes,
    private readonly lines: EsimLines,
    private readonly db: DataSource,
  ) {}

  /** From now on an attempt that fails leaves its provisioning to the next start's sweeper. */
  stop(): void {
    this.stopping = true;
  }

  async run(p: Provisioning): Promise<void> {
    let op: ProviderOperation | null = null;
    let ordered = false;
    let claimLost = false;
    try {
      if (p.attempts > 1) {
        op = await this.provider.findOperation(
          p.kind === 'new' ? { kind: 'create', reference: p.redemptionId } : { kind: 'refill', reference: p.redemptionId, iccid: p.targetIccid! },
        );
        this.log.log(`provisioning ${p.id}, attempt ${p.attempts}: the provider ${op ? 'already did it' : 'shows no trace of it'}`);
        if (!op && p.orderSentAt) {
          await this.outcomes.manual(p.id, OUTCOME_UNKNOWN, MANUAL_TRANSFER_MESSAGE, {
            detail: `A new line was ordered from KeepGo at ${p.orderSentAt.toISOString()} and no answer was recorded; no KeepGo line carries our reference ${p.redemptionId}. Check KeepGo before delivering: the line may exist.`,
          });
          return;
        }
      }
      op ??=
        p.kind === 'new'
          ? await this.provider.createLine({
              country: p.country!,
              plan: p.planTier,
              reference: p.redemptionId,
              beforeSend: async () => {
                if (!(await this.outcomes.ordering(p.id, p.attempts))) {
                  claimLost = true;
                  throw new Error(`attempt ${p.attempts} no longer holds the claim`);
                }
                ordered = true;
              },
            })
          : await this.provider.refill({ iccid: p.targetIccid!, plan: p.planTier, reference: p.redemptionId });
    } catch (err) {
      if (claimLost) {
        // Another worker claimed it after this one's lease ran out: it is that worker's now.
        this.log.warn(`provisioning ${p.id}: attempt ${p.attempts} lost its claim before ordering; nothing sent, nothing recorded`);
        return;
      }
      if (this.stopping) {
        this.log.warn(`provisioning ${p.id}: interrupted by shutdown; the sweeper will ask the provider after restart`);
        return;
      }
      return this.failed(p, err, ordered);
    }
    await this.outcomes.succeeded(p.id, await this.withLineDetails(p, deliveredLine(op)));
  }

  private async failed(p: Provisioning, err: unknown, ordered: boolean): Promise<void> {
    const e = err instanceof EsimProviderException ? err : null;
    if (ordered && !e?.definite) {
      if (e && !e.outcomeUnknown) {
        // Turned away before KeepGo did anything (a refused connection, a 429): ordering again is safe.
        await this.outcomes.notOrdered(p.id, p.attempts);
      } else {
        this.log.error(`provisioning ${p.id}: a new line was ordered and no answer came (${e?.message ?? String(err)}); an operator takes over`);
        await this.outcomes.manual(p.id, e?.code ?? OUTCOME_UNKNOWN, MANUAL_TRANSFER_MESSAGE, {
          detail: `KeepGo did not answer the order of a new line (${e?.message ?? 'error'}) and no line carries our reference ${p.redemptionId}. Check KeepGo before delivering: the line may exist.`,
        });
        return;
      }
    }
    if (e?.definite && USER_REFUSALS.has(e.code)) {
      if (p.kind === 'topup' && e.code !== 'line_not_found' && !(await this.lines.holds(this.db.manager, p.userId, p.targetIccid!))) {
        // A refusal that names a reason ("No refills available") would tell whoever typed an ICCID
        // that the line exists. For a line outside the user's wallet every refusal reads as an
        // unknown line (docs/decisions.md, "Topping up someone else's eSIM"); the provider's words are logged.
        this.log.warn(`provisioning ${p.id}: top-up of a line outside the user's wallet refused (${e.code}: ${e.message}); answered as line not found`);
        await this.outcomes.refused(p.id, 'line_not_found', `line not found (ICCID ${p.targetIccid})`);
        return;
      }
      await this.outcomes.refused(p.id, e.code, refusalMessage(e));
      return;
    }
    if (e?.definite && OPERATOR_PROBLEMS.has(e.code)) {
      await this.outcomes.manual(p.id, e.code, MANUAL_TRANSFER_MESSAGE, { definite: true, detail: e.message });
      return;
    }
    if (!e) this.log.error(`provisioning ${p.id}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    if (e?.paused) {
      // KeepGo's circuit breaker refused the call unsent: KeepGo is down, not this order. Tried again
      // after the usual delay without spending an attempt, so an outage longer than the attempts'
      // backoff holds orders (the ProviderCircuitOpen alert fires) instead of handing them to a person.
      const delay = this.settings.retryMs;
      this.log.warn(`provisioning ${p.id}: KeepGo's circuit breaker is open, nothing sent; next try in ${delay} ms`);
      await this.outcomes.retryUnspent(p.id, p.attempts, delay);
      return;
    }
    if (p.attempts >= this.settings.maxAttempts) {
      await this.outcomes.manual(p.id, e?.code ?? 'unavailable', MANUAL_TRANSFER_MESSAGE, { detail: e?.message });
      return;
    }
    const delay = this.settings.retryMs * 2 ** (p.attempts - 1);
    this.log.warn(`provisioning ${p.id}, attempt ${p.attempts} of ${this.settings.maxAttempts} failed (${e?.message ?? 'error'}); next in ${delay} ms`);
    await this.outcomes.retryLater(p.id, p.attempts, delay);
  }

  /**
   * A top-up's answer carries no activation code: the line's details may, for the wallet of the
   * user who holds the line. Never read for anyone else's line: its activation code is not theirs
   * to see (ProvisioningOutcomes.succeeded drops it anyway). Best effort.
   */
  private async withLineDetails(p: Provisioning, line: DeliveredLine): Promise<DeliveredLine> {
    if (line.lpaCode) return line;
    if (!(await this.lines.holds(this.db.manager, p.userId, line.iccid))) return line;
    try {
      const details = await this.provider.lineDetails(line.iccid);
      return { ...line, lpaCode: line.lpaCode ?? details.lpaCode, msisdn: line.msisdn ?? details.msisdn };
    } catch {
      return line;
    }
  }
}

/** The provider's refusal, worded with the fragments the claim page maps (docs/redemption.md). */
function refusalMessage(e: EsimProviderException): string {
  if (e.code === 'refused') return `Provider API error: ${e.providerMessage ?? e.message}`;
  return e.message.replace(/^KeepGo: /, '');
}
