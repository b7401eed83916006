import { Inject, Injectable, Logger } from '@nestjs/common';
import { ProviderCalls } from '@esim/platform';
import type {
  AccountBalance,
  CompletedRefill,
  CreateLineRequest,
  EsimProvider,
  LineDetails,
  LinesPage,
  OperationQuery,
  ProviderOperation,
  ProvisionedLine,
  RefillRequest,
} from './esim-provider';
import { EsimProviderException } from './esim-provider.exception';
import {
  KeepGoAccountBalanceAnswer,
  KeepGoAvailableRefillsAnswer,
  KeepGoBundle,
  KeepGoBundlesAnswer,
  KeepGoCreateLineAnswer,
  KeepGoDetailedSimCard,
  KeepGoLineDetailsAnswer,
  KeepGoLinesAnswer,
  KeepGoRefillAnswer,
} from './keepgo-api';
import { KeepGoCall, KeepGoHttpClient } from './keepgo-http-client';
import { KeepGoLineLocks } from './keepgo-line-locks.service';
import { KEEPGO_CALLS, KEEPGO_SETTINGS, KeepGoSettings } from './keepgo-settings';
import { findRecord, LineNotes, NoteRecord, parseNotes, withRecord } from './line-notes';
import { chooseBundle, chooseRefill, KEEPGO_MB_PER_GB, planRefill } from './plan-offers';

const REFERENCE = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;
const ICCID = /^\d{18,22}$/;
const LOOKUP_PAGE_SIZE = 100;
const MAX_BACKOFF_MS = 5_000;

/**
 * The real KeepGo v2 adapter (docs/keepgo.md). Reads are retried on transient failures; a create
 * or refill is never sent again after an unanswered attempt until the provider has been asked, by
 * our reference, whether the first one landed. The reference travels as `Idempotency-Key` and is
 * recorded in the line's notes, where `findOperation` finds it again after a crash. A create that
 * KeepGo may have carried out but shows no trace of is never sent again: KeepGo documents no
 * idempotency, and only our notes (written after its answer) could tell, so the failure stands
 * with its outcome unknown and the caller hands the order to a person.
 *
 * Everything that reads and rewrites a line's notes, and the refill sent in between, runs under
 * that line's lock, which every replica respects (keepgo-line-locks.service.ts).
 */
@Injectable()
export class KeepGoEsimProvider implements EsimProvider {
  private readonly log = new Logger('KeepGo');
  private readonly http: KeepGoHttpClient;
  private catalogue: { expiresAt: number; bundles: Promise<KeepGoBundle[]> } | undefined;
  readonly sandbox: boolean;

  constructor(
    @Inject(KEEPGO_SETTINGS) private readonly settings: KeepGoSettings,
    private readonly lineLocks: KeepGoLineLocks,
    @Inject(KEEPGO_CALLS) calls: ProviderCalls,
  ) {
    this.sandbox = settings.sandbox;
    this.http = new KeepGoHttpClient(
      {
        baseUrl: () => this.baseUrl(),
        apiKey: settings.apiKey,
        accessToken: settings.accessToken,
        timeoutMs: settings.timeoutMs,
      },
      calls,
    );
  }

  /** The configured base: live KeepGo, or the emulator in the sandboxes process. */
  baseUrl(): string {
    return this.settings.baseUrl;
  }

  async createLine(request: CreateLineRequest): Promise<ProvisionedLine> {
    checkReference(request.reference);
    const country = request.country.toUpperCase();
    const wanted = planRefill(request.plan);
    const choice = /^[A-Z]{2}$/.test(country)
      ? chooseBundle(await this.bundles(), country, wanted, this.settings.pinnedBundles)
      : undefined;
    if (!choice) throw EsimProviderException.noSuitableOffer(`bundle with ${request.plan} for ${country}`);
    const { bundle, refill } = choice;
    const body = {
      bundle_id: bundle.id,
      refill_mb: refill.amount_mb,
      ...(refill.amount_days === null ? {} : { refill_days: refill.amount_days }),
    };

    const outcome = await this.sendOnce(
      async () => {
        await request.beforeSend?.();
        return this.http.send<KeepGoCreateLineAnswer>({ method: 'POST', path: '/line/create', body, idempotencyKey: request.reference });
      },
      () => this.findCreated(request.reference),
      { resendUnknown: false },
    );
    if ('found' in outcome) return outcome.found;
    const answer = outcome.answer;
    const iccid = answer.sim_card?.iccid;
    if (!iccid) {
      throw new EsimProviderException('unavailable', 'KeepGo API unavailable: line/create answered without an ICCID', {
        outcomeUnknown: true,
      });
    }
    const record: NoteRecord = {
      ref: request.reference,
      kind: 'create',
      state: 'done',
      mb: refill.amount_mb,
      days: refill.amount_days,
      tx: answer.transaction_id ?? null,
      bundle: answer.data_bundle_id ?? null,
      at: new Date().toISOString(),
    };
    // Read and written under the line's lock like any other note: nobody else knows this ICCID yet,
    // but an operator's tools or a refill of it could soon.
    const details = await this.onLine(iccid, async () => {
      let read: KeepGoDetailedSimCard | undefined;
      try {
        read = await this.details(iccid);
      } catch (err) {
        this.log.warn(`new line ${iccid}: details not read (${(err as Error).message}); its phone number is unknown for now`);
      }
      await this.recordQuietly(iccid, parseNotes(read?.notes), record);
      return read;
    }).catch((err: unknown) => {
      // The line exists: a lock that could not be had must not turn it into a failure.
      this.log.warn(`new line ${iccid}: reference ${record.ref} not recorded in its notes (${(err as Error).message})`);
      return undefined;
    });
    const line: ProvisionedLine = {
      kind: 'create',
      reference: request.reference,
      iccid,
      lpaCode: answer.sim_card.lpa_code || details?.lpa_code || '',
      msisdn: details?.msisdn || null,
      transactionId: answer.transaction_id ?? null,
      bundleId: bundle.id,
      amountMb: refill.amount_mb,
      amountDays: refill.amount_days,
    };
    this.log.log(`created line ${iccid} on bundle ${bundle.id} (${refill.title}) for ${request.reference}`);
    return line;
  }

  async refill(request: RefillRequest): Promise<CompletedRefill> {
    checkReference(request.reference);
    const { iccid, reference } = request;
    if (!ICCID.test(iccid)) throw EsimProviderException.lineNotFound(iccid);
    const wanted = planRefill(request.plan);
    return this.onLine(iccid, async () => {
      const details = await this.details(iccid);
      let notes = parseNotes(details.notes);
      const previous = findRecord(notes, reference);
      if (previous?.kind === 'refill') {
        const earlier = await this.settle(iccid, details, notes, previous);
        if (earlier) return earlier;
      }

      const { available_refills: options } = await this.retrying(() =>
        this.http.send<KeepGoAvailableRefillsAnswer>({ method: 'GET', path: `${linePath(iccid)}/available_refills` }),
      );
      if (!options || options.length === 0) throw EsimProviderException.noRefillsAvailable(iccid);
      const option = chooseRefill(options, wanted);
      if (!option) throw EsimProviderException.noSuitableOffer(`refill of ${request.plan} for line ${iccid}`);

      // Written before the refill is sent, so that a lost answer can be recognised later.
      const pending: NoteRecord = {
        ref: reference,
        kind: 'refill',
        state: 'pending',
        mb: option.amount_mb,
        days: option.amount_days,
        floor: highestBundleId(details),
        at: new Date().toISOString(),
      };
      notes = parseNotes(await this.writeNotes(iccid, notes, pending));

      const outcome = await this.sendOnce(
        () =>
          this.http.send<KeepGoRefillAnswer>({
            method: 'POST',
            path: `${linePath(iccid)}/refill`,
            body: { amount_mb: option.amount_mb, amount_days: option.amount_days },
            idempotencyKey: reference,
          }),
        () => this.findRefill(reference, iccid),
        // A refill that landed shows on the line (the pending record's floor), and nothing else
        // touches the line while its lock is held: no trace means it was not done.
        { resendUnknown: true },
      );
      if ('found' in outcome) return outcome.found;
      const done: NoteRecord = {
        ...pending,
        state: 'done',
        tx: outcome.answer.transaction_id ?? null,
        bundle: outcome.answer.data_bundle_id ?? null,
      };
      await this.recordQuietly(iccid, notes, done);
      this.log.log(`refilled line ${iccid} with ${option.title} for ${reference}`);
      return refillOf(done, iccid);
    });
  }

  async lineDetails(iccid: string): Promise<LineDetails> {
    if (!ICCID.test(iccid)) throw EsimProviderException.lineNotFound(iccid);
    const card = await this.details(iccid);
    return {
      iccid: card.iccid,
      msisdn: card.msisdn || null,
      lpaCode: card.lpa_code || null,
      status: card.status,
      remainingMb: toMb(card.remaining_usage_kb),
      allowedMb: toMb(card.allowed_usage_kb),
      remainingDays: card.remaining_days ?? null,
      bundleName: card.bundle ?? null,
    };
  }

  async deactivateLine(iccid: string): Promise<void> {
    if (!ICCID.test(iccid)) throw EsimProviderException.lineNotFound(iccid);
    // KeepGo has no cancel call: a deactivation date of today or earlier deactivates the line now
    // (/work/shared/reference/providers.md). Setting the same date again changes nothing, so retrying is safe.
    const today = new Date().toISOString().slice(0, 10);
    await this.retrying(() =>
      this.http.send({ method: 'PUT', path: `${linePath(iccid)}/deactivation_date`, body: { deactivation_date: today } }),
    );
  }

  async listLines(page: { page?: number; perPage?: number } = {}): Promise<LinesPage> {
    const { sim_cards: cards } = await this.retrying(() =>
      this.http.send<KeepGoLinesAnswer>({ method: 'GET', path: '/lines', query: { page: page.page ?? 1, per_page: page.perPage ?? 25 } }),
    );
    return {
      total: Number(cards.total),
      page: Number(cards.current_page),
      perPage: Number(cards.per_page),
      lastPage: Number(cards.last_page),
      items: (cards.items ?? []).map((c) => ({
        iccid: c.iccid,
        status: c.status,
        remainingMb: toMb(c.remaining_usage_kb),
        remainingDays: c.remaining_days ?? null,
      })),
    };
  }

  async accountBalance(): Promise<AccountBalance> {
    const answer = await this.retrying(() => this.http.send<KeepGoAccountBalanceAnswer>({ method: 'GET', path: '/account_balance' }));
    return { currency: 'USD', amount: String(answer.account_balance) };
  }

  async findOperation(query: OperationQuery): Promise<ProviderOperation | null> {
    checkReference(query.reference);
    if (query.kind === 'create') return this.findCreated(query.reference);
    if (!ICCID.test(query.iccid)) return null;
    return this.onLine(query.iccid, () => this.findRefill(query.reference, query.iccid));
  }

  // ── lookups by reference ────────────────────────────────────────────────────────────────

  /** A new line is found by the record our adapter wrote into its notes, scanning the account's lines. */
  private async findCreated(reference: string): Promise<ProvisionedLine | null> {
    for (let page = 1; page <= this.settings.lookupMaxPages; page++) {
      const { sim_cards: cards } = await this.retrying(() =>
        this.http.send<KeepGoLinesAnswer>({ method: 'GET', path: '/lines', query: { page, per_page: LOOKUP_PAGE_SIZE } }),
      );
      for (const item of cards.items ?? []) {
        const record = findRecord(parseNotes(item.notes), reference);
        if (record?.kind !== 'create') continue;
        const details = await this.details(item.iccid);
        return {
          kind: 'create',
          reference,
          iccid: item.iccid,
          lpaCode: details.lpa_code ?? '',
          msisdn: details.msisdn || null,
          transactionId: record.tx ?? null,
          bundleId: Number(details.bundle_id ?? 0),
          amountMb: record.mb,
          amountDays: record.days,
        };
      }
      if (page >= Number(cards.last_page)) break;
    }
    return null;
  }

  private async findRefill(reference: string, iccid: string): Promise<CompletedRefill | null> {
    let details: KeepGoDetailedSimCard;
    try {
      details = await this.details(iccid);
    } catch (err) {
      // No line, no refill on it.
      if (err instanceof EsimProviderException && err.code === 'line_not_found') return null;
      throw err;
    }
    const notes = parseNotes(details.notes);
    const record = findRecord(notes, reference);
    return record?.kind === 'refill' ? this.settle(iccid, details, notes, record) : null;
  }

  /**
   * A recorded refill: done, or pending and recognisable on the line as a data bundle newer than
   * the one recorded before sending, of the refill's size, that no other record claims.
   */
  private async settle(
    iccid: string,
    details: KeepGoDetailedSimCard,
    notes: LineNotes,
    record: NoteRecord,
  ): Promise<CompletedRefill | null> {
    if (record.state === 'done') return refillOf(record, iccid);
    const claimed = new Set(notes.records.filter((r) => r.ref !== record.ref).map((r) => r.bundle));
    const landed = (details.data_bundles ?? []).find(
      (b) =>
        Number(b.id) > (record.floor ?? 0) && Number(b.allowed_usage_kb) === record.mb * KEEPGO_MB_PER_GB && !claimed.has(Number(b.id)),
    );
    if (!landed) return null;
    const done: NoteRecord = { ...record, state: 'done', tx: null, bundle: Number(landed.id) };
    await this.recordQuietly(iccid, notes, done);
    this.log.log(`refill ${record.ref} on line ${iccid} had landed (data bundle ${landed.id})`);
    return refillOf(done, iccid);
  }

  // ── plumbing ────────────────────────────────────────────────────────────────────────────

  private async details(iccid: string): Promise<KeepGoDetailedSimCard> {
    const answer = await this.retrying(() =>
      this.http.send<KeepGoLineDetailsAnswer>({ method: 'GET', path: `${linePath(iccid)}/get_details` }),
    );
    if (!answer.sim_card?.iccid) throw EsimProviderException.lineNotFound(iccid);
    return answer.sim_card;
  }

  private bundles(): Promise<KeepGoBundle[]> {
    if (!this.catalogue || this.catalogue.expiresAt < Date.now()) {
      const bundles = this.retrying(() => this.http.send<KeepGoBundlesAnswer>({ method: 'GET', path: '/bundles' })).then(
        (a) => a.bundles ?? [],
      );
      this.catalogue = { expiresAt: Date.now() + this.settings.catalogueCacheMs, bundles };
      bundles.catch(() => {
        if (this.catalogue?.bundles === bundles) this.catalogue = undefined;
      });
    }
    return this.catalogue.bundles;
  }

  private async writeNotes(iccid: string, notes: LineNotes, record: NoteRecord): Promise<string> {
    const text = withRecord(notes, record);
    const call: KeepGoCall = { method: 'PUT', path: `${linePath(iccid)}/update_notes`, body: { notes: text } };
    await this.retrying(() => this.http.send(call));
    return text;
  }

  /** After the provider did the work, failing to write our note must not turn success into failure. */
  private async recordQuietly(iccid: string, notes: LineNotes, record: NoteRecord): Promise<void> {
    try {
      await this.writeNotes(iccid, notes, record);
    } catch (err) {
      this.log.warn(`line ${iccid}: reference ${record.ref} not recorded in its notes (${(err as Error).message})`);
    }
  }

  /** Idempotent calls: transient failures are retried with backoff, refusals are not. */
  private async retrying<T>(attempt: () => Promise<T>): Promise<T> {
    for (let i = 0; ; i++) {
      try {
        return await attempt();
      } catch (err) {
        if (!EsimProviderException.isTransient(err) || (err as EsimProviderException).paused || i >= this.settings.retries) throw err;
        await this.backoff(i);
      }
    }
  }

  /**
   * A call that creates something. After a failure that may have been carried out, the provider is
   * asked by our reference first; only when it shows no trace, and that means it was not done
   * (`resendUnknown`), is the call sent again (with the same Idempotency-Key). If it cannot even be
   * asked, or its silence proves nothing, the failure stands, outcome unknown.
   */
  private async sendOnce<A, F>(
    send: () => Promise<A>,
    lookup: () => Promise<F | null>,
    { resendUnknown }: { resendUnknown: boolean },
  ): Promise<{ answer: A } | { found: F }> {
    for (let i = 0; ; i++) {
      try {
        return { answer: await send() };
      } catch (err) {
        // Refused by the breaker: not sent, and sending again now would be refused the same way.
        if (!EsimProviderException.isTransient(err) || (err as EsimProviderException).paused) throw err;
        if ((err as EsimProviderException).outcomeUnknown) {
          let found: F | null;
          try {
            found = await lookup();
          } catch (lookupErr) {
            this.log.warn(`could not ask KeepGo whether an unanswered call landed: ${(lookupErr as Error).message}`);
            throw err;
          }
          if (found) return { found };
          if (!resendUnknown) throw err;
        }
        if (i >= this.settings.retries) throw err;
        await this.backoff(i);
      }
    }
  }

  private backoff(attempt: number): Promise<void> {
    const ms = Math.min(MAX_BACKOFF_MS, this.settings.retryBackoffMs * 2 ** attempt) * (0.5 + Math.random() / 2);
    return new Promise((resolve) => setTimeout(resolve, ms));
  }

  private onLine<T>(iccid: string, work: () => Promise<T>): Promise<T> {
    return this.lineLocks.hold(iccid, work);
  }
}

function checkReference(reference: string): void {
  if (!REFERENCE.test(reference)) throw new TypeError(`invalid provider reference "${reference}": 1-128 letters, digits, . _ : -`);
}

const linePath = (iccid: string) => `/line/${encodeURIComponent(iccid)}`;
const toMb = (kb: number | null | undefined) => (kb === null || kb === undefined ? null : Math.floor(Number(kb) / KEEPGO_MB_PER_GB));
const highestBundleId = (details: KeepGoDetailedSimCard) => Math.max(0, ...(details.data_bundles ?? []).map((b) => Number(b.id)));

function refillOf(record: NoteRecord, iccid: string): CompletedRefill {
  return {
    kind: 'refill',
    reference: record.ref,
    iccid,
    transactionId: record.tx ?? null,
    dataBundleId: record.bundle ?? null,
    amountMb: record.mb,
    amountDays: record.days,
  };
}
