import { PostbackFormatError, amount, required, toPoints, transactionId, userIdOf, withQuery } from './postback-params';
import { OfferwallProvider } from './offerwall-provider';
import { md5Hex, sameDigest } from './hashing';
import { taskKindOf } from './task-kind';

/**
 * RapidoReach (docs.rapidoreach.com: GenerateUserID, callbacks).
 * - The wall gets `uid = internalId-appId-md5(internalId-appId-appKey)`. RapidoReach splits the uid
 *   on '-', so the internal id is our UUID without its hyphens.
 * - Callback: GET with cmd, userId (the uid), endUserId (internal id), currencyAmt (our points),
 *   transactionId, offerType, status, txnHash…; answer body `1` once processed.
 * - txnHash = md5(transactionId + appSecret): the docs only say "secure hashing" with the app
 *   secret; this is the Peanut Labs scheme their parameters copy (providers.md §2.1) — confirm it
 *   with a test callback from the dashboard. The uid checksum is verified as well.
 * - Reversal: not documented; a callback with a negative currencyAmt takes the transaction back.
 *   txnHash covers neither the amount nor its sign: a leaked credit URL with a negative currencyAmt
 *   is a signed reversal, so the allow-list (RAPIDOREACH_ALLOWED_IPS) is required live.
 */
const internalId = (userId: string) => userId.replace(/-/g, '').toLowerCase();

function userIdFromInternal(value: string): string | null {
  const m = /^([0-9a-f]{8})([0-9a-f]{4})([0-9a-f]{4})([0-9a-f]{4})([0-9a-f]{12})$/i.exec(value);
  return m ? userIdOf(m.slice(1).join('-')) : null;
}

const uidFor = (internal: string, appId: string, appKey: string) => `${internal}-${appId}-${md5Hex(`${internal}-${appId}-${appKey}`)}`;
const txnHash = (transaction: string, secret: string) => md5Hex(`${transaction}${secret}`);

export const rapidoReach: OfferwallProvider<'appId' | 'appKey' | 'secret'> = {
  id: 'rapidoreach',
  name: 'RapidoReach',
  credentials: { appId: 'RAPIDOREACH_APP_ID', appKey: 'RAPIDOREACH_APP_KEY', secret: 'RAPIDOREACH_APP_SECRET' },
  allowedIps: 'RAPIDOREACH_ALLOWED_IPS',
  signatureCovers: { user: true, transactionId: true, amount: false, action: false },
  ack: '1',
  transactionParam: 'transactionId',
  userParam: 'endUserId',

  externalUserId: (c, userId) => uidFor(internalId(userId), c.appId, c.appKey),

  embed: (c, userId) => ({
    kind: 'iframe',
    url: `https://www.rapidoreach.com/ofw/?userId=${encodeURIComponent(uidFor(internalId(userId), c.appId, c.appKey))}`,
  }),

  verify(_d, p, c) {
    const endUserId = p.get('endUserId') ?? '';
    const transaction = p.get('transactionId') ?? '';
    return (
      sameDigest(p.get('userId'), uidFor(endUserId, c.appId, c.appKey)) && sameDigest(p.get('txnHash'), txnHash(transaction, c.secret))
    );
  },

  read(p) {
    const transaction = transactionId(p, 'transactionId');
    const value = amount(p, 'currencyAmt');
    if (required(p, 'cmd') !== 'transactionComplete') throw new PostbackFormatError('invalid', 'cmd is not transactionComplete');
    return {
      transactionId: transaction,
      creditTransactionId: transaction,
      userId: userIdFromInternal(required(p, 'endUserId')),
      action: value < 0 ? 'reverse' : 'credit',
      points: toPoints(value),
      // RapidoReach routes people to surveys: a postback without an offer type paid for one.
      kind: taskKindOf(p.get('offerType'), 'survey'),
    };
  },

  sign(c, e, endpoint) {
    const internal = internalId(e.userId);
    const points = e.action === 'reverse' ? -e.offer.points : e.offer.points;
    return withQuery(endpoint, {
      cmd: 'transactionComplete',
      userId: uidFor(internal, c.appId, c.appKey),
      endUserId: internal,
      amt: (e.offer.points / 1000).toFixed(2),
      offerInvitationId: e.offer.id,
      status: 'C',
      currencyAmt: String(points),
      transactionId: e.transactionId,
      offerTitle: e.offer.name,
      currencyName: 'MB',
      offerType: e.offer.category,
      txnHash: txnHash(e.transactionId, c.secret),
      transactionSource: 'iframe',
      useragent: 'RapidoReach',
    });
  },
};
