import { amount, offerNameOf, pointsOf, required, transactionId, userIdOf, withQuery } from './postback-params';
import { OfferwallProvider } from './offerwall-provider';
import { hmacSha1Hex, sameDigest } from './hashing';
import { taskKindOf } from './task-kind';

/**
 * BitLabs (developer.bitlabs.ai: callback parameters, securing callbacks, survey callbacks).
 * - Wall: https://web.bitlabs.ai/?uid=<user id>&token=<app token>.
 * - Reward callback URL to configure:
 *   …/webhooks/offerwalls/bitlabs?uid=[%USER:UID%]&tx=[%TX%]&val=[%VALUE:CURRENCY%]&usd=[%VALUE:USD%]
 *     &type=[%TYPE%]&ref=[%REF%]&offer_name=[%OFFER:NAME%]
 * - BitLabs appends `&hash=` = HMAC-SHA1 (hex, app secret) of the full URL before `&hash=`, exactly
 *   as sent: it covers every parameter, the amount included, and the scheme and host.
 * - type COMPLETE / SCREENOUT / START_BONUS credit; RECONCILIATION reverses the COMPLETE named by
 *   ref (it has its own tx). Offer callbacks carry no type and credit.
 */
const HASH = '&hash=';
const signedPart = (url: string) => url.slice(0, url.lastIndexOf(HASH));

export const bitLabs: OfferwallProvider<'appId' | 'secret'> = {
  id: 'bitlabs',
  name: 'BitLabs',
  credentials: { appId: 'BITLABS_APP_TOKEN', secret: 'BITLABS_APP_SECRET' },
  allowedIps: 'BITLABS_ALLOWED_IPS',
  signatureCovers: { user: true, transactionId: true, amount: true, action: true },
  ack: 'OK',
  transactionParam: 'tx',
  userParam: 'uid',

  externalUserId: (_c, userId) => userId,

  embed: (c, userId) => ({
    kind: 'iframe',
    url: `https://web.bitlabs.ai/?uid=${encodeURIComponent(userId)}&token=${encodeURIComponent(c.appId)}`,
  }),

  verify(d, _p, c) {
    const at = d.fullUrl.lastIndexOf(HASH);
    if (at < 0) return false;
    return sameDigest(d.fullUrl.slice(at + HASH.length), hmacSha1Hex(c.secret, signedPart(d.fullUrl)));
  },

  read(p) {
    const transaction = transactionId(p, 'tx');
    const type = p.get('type')?.toUpperCase();
    const action = type === 'RECONCILIATION' ? 'reverse' : 'credit';
    return {
      transactionId: transaction,
      creditTransactionId: action === 'reverse' ? transactionId(p, 'ref') : transaction,
      userId: userIdOf(required(p, 'uid')),
      action,
      points: pointsOf(action, amount(p, 'val'), 'val'),
      // COMPLETE and SCREENOUT are survey callbacks, an offer callback has no type; either names its offer.
      kind: type === 'START_BONUS' ? 'other' : taskKindOf(p.get('offer_name'), type ? 'survey' : 'offer'),
      ...offerNameOf(p, 'offer_name'),
    };
  },

  sign(c, e, endpoint) {
    const reverse = e.action === 'reverse';
    const url = withQuery(endpoint, {
      uid: e.userId,
      tx: reverse ? `${e.transactionId}-R` : e.transactionId,
      val: String(reverse ? -e.offer.points : e.offer.points),
      usd: ((reverse ? -e.offer.points : e.offer.points) / 1000).toFixed(2),
      type: reverse ? 'RECONCILIATION' : 'COMPLETE',
      ref: e.transactionId,
      offer_name: e.offer.name,
    });
    return `${url}${HASH}${hmacSha1Hex(c.secret, url)}`;
  },
};
