import { amount, offerNameOf, required, toPoints, transactionId, userIdOf, withQuery } from './postback-params';
import { OfferwallProvider } from './offerwall-provider';
import { sameDigest, sha256Hex } from './hashing';
import { taskKindOf } from './task-kind';

/**
 * Lootably (documentation.lootably.com/docs/postbacks, npm lootably-postback-hash).
 * - Wall: https://wall.lootably.com/?placementID=<placement>&sid=<user id>.
 * - Postback URL to configure:
 *   …/webhooks/offerwalls/lootably?userID={userID}&transactionID={transactionID}&ip={ip}&offerName={offerName}
 *     &offerID={offerID}&goalName={goalName}&revenue={revenue}&currencyReward={currencyReward}&hash={hash}
 * - hash = SHA-256 hex of userID + ip + revenue + currencyReward + postback secret, the values as
 *   sent: it covers the user and the amount, not the transaction id: a leaked URL with new ids is a
 *   signed new credit, so the allow-list (LOOTABLY_ALLOWED_IPS) is required live.
 * - Reversal: the same transactionID with a negative currencyReward (and revenue).
 */
const hashOf = (userId: string, ip: string, revenue: string, reward: string, secret: string) =>
  sha256Hex(`${userId}${ip}${revenue}${reward}${secret}`);

export const lootably: OfferwallProvider<'appId' | 'secret'> = {
  id: 'lootably',
  name: 'Lootably',
  credentials: { appId: 'LOOTABLY_PLACEMENT_ID', secret: 'LOOTABLY_POSTBACK_SECRET' },
  allowedIps: 'LOOTABLY_ALLOWED_IPS',
  signatureCovers: { user: true, transactionId: false, amount: true, action: true },
  ack: '1',
  transactionParam: 'transactionID',
  userParam: 'userID',

  externalUserId: (_c, userId) => userId,

  embed: (c, userId) => ({
    kind: 'iframe',
    url: `https://wall.lootably.com/?placementID=${encodeURIComponent(c.appId)}&sid=${encodeURIComponent(userId)}`,
  }),

  verify: (_d, p, c) =>
    sameDigest(
      p.get('hash'),
      hashOf(p.get('userID') ?? '', p.get('ip') ?? '', p.get('revenue') ?? '', p.get('currencyReward') ?? '', c.secret),
    ),

  read(p) {
    const transaction = transactionId(p, 'transactionID');
    const reward = amount(p, 'currencyReward');
    return {
      transactionId: transaction,
      creditTransactionId: transaction,
      userId: userIdOf(required(p, 'userID')),
      action: reward < 0 ? 'reverse' : 'credit',
      points: toPoints(reward),
      kind: taskKindOf([p.get('offerName'), p.get('goalName')].filter(Boolean).join(' '), 'offer'),
      ...offerNameOf(p, 'offerName'),
    };
  },

  sign(c, e, endpoint) {
    const sign = e.action === 'reverse' ? -1 : 1;
    const revenue = ((sign * e.offer.points) / 1000).toFixed(4);
    const reward = String(sign * e.offer.points);
    return withQuery(endpoint, {
      userID: e.userId,
      transactionID: e.transactionId,
      ip: e.userIp,
      offerName: e.offer.name,
      offerID: e.offer.id,
      goalName: '',
      revenue,
      currencyReward: reward,
      hash: hashOf(e.userId, e.userIp, revenue, reward, c.secret),
    });
  },
};
