/**
 * A reversal reached the ledger before the credit it takes back. The ingestion service accepts a
 * reversal only after it accepted that credit for the same user (docs/earning.md, "Checks"), so
 * the credit is on its way: in another transaction of this consumer that took the account's lock
 * after this one (OfferwallCredits applies two groups at once), or behind a delivery that failed.
 *
 * Thrown rather than refused: the transaction rolls back and the delivery is tried again, alone
 * first, then by the broker up to EVENT_DELIVERY_LIMIT times; by then the credit is in the ledger.
 * A refusal would lose the reversal for good, since the provider had its 200 and never sends it
 * again. A credit that never comes (its delivery dead-lettered) leaves the reversal in the
 * dead-letter queue beside it, for an operator to replay after the credit.
 */
export class CreditNotAppliedYetException extends Error {
  constructor(readonly reference: string) {
    super(`the credit ${reference} this reversal takes back is not in the ledger yet`);
    this.name = 'CreditNotAppliedYetException';
  }
}
