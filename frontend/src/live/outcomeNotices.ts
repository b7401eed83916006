/**
 * One notice per eSIM outcome. A redemption's answer (pages/redeem/useRedemption.ts) and the live
 * stream's 'your eSIM is ready' / 'data added' (LiveUpdates.tsx) report the same delivery, and the
 * live one may come first. The page's notice says more (what was spent, where it goes next), so
 * it is the one shown: while a redemption is waiting for its answer, and for a short while after
 * the page told its outcome, the live stream stays silent about eSIM outcomes. An answer the page
 * does not tell (still processing, failed) leaves the live notice to say it when the data lands.
 */
export class OutcomeNotices {
  private waiting = 0;
  private toldAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly windowMs = 15_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** A redemption was sent. */
  begin(): void {
    this.waiting++;
  }

  /** Its answer came; `told`: the page showed the outcome itself. */
  end(told: boolean): void {
    this.waiting = Math.max(0, this.waiting - 1);
    if (told) this.toldAt = this.now();
  }

  /** Whether the live stream should tell an eSIM outcome now. */
  liveMayTell(): boolean {
    return this.waiting === 0 && this.now() - this.toldAt > this.windowMs;
  }
}

/** The tab's one registry, shared by the redemption page and the live stream. */
export const outcomeNotices = new OutcomeNotices();
