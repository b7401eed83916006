import { PostbackFormatError, amount, pointsOf, required, transactionId, userIdOf, withQuery } from './postback-params';
import { OfferwallProvider } from './offerwall-provider';
import { md5Hex, sameDigest } from './hashing';

/**
 * CPX Research (publisher docs, integrator notes in providers.md §2.2).
 * - Survey widget: script_tag_v2.0.js with `general_config { app_id, ext_user_id, secure_hash }`,
 *   secure_hash = md5(ext_user_id + "-" + app secure hash).
 * - Postback URL to configure:
 *   …/webhooks/offerwalls/cpx?status={status}&trans_id={trans_id}&user_id={user_id}&amount_local={amount_local}
 *     &amount_usd={amount_usd}&offer_id={offer_ID}&type={type}&ip_click={ip_click}&secure_hash={secure_hash}
 * - secure_hash = md5(trans_id + "-" + app secure hash). It covers neither the amount nor the status:
 *   a leaked credit URL with status=2 is a signed reversal. The required allow-list
 *   (CPX_ALLOWED_IPS), the unique transaction and POSTBACK_MAX_POINTS guard them.
 * - status 1 credits, status 2 reverses the same trans_id. type: complete | out (screen-out) | bonus.
 */
const hashOf = (transaction: string, secret: string) => md5Hex(`${transaction}-${secret}`);

export const cpxResearch: OfferwallProvider<'appId' | 'secret'> = {
  id: 'cpx',
  name: 'CPX Research',
  credentials: { appId: 'CPX_APP_ID', secret: 'CPX_SECURE_HASH' },
  allowedIps: 'CPX_ALLOWED_IPS',
  signatureCovers: { user: false, transactionId: true, amount: false, action: false },
  ack: '1',
  transactionParam: 'trans_id',
  userParam: 'user_id',

  externalUserId: (_c, userId) => userId,

  embed: (c, userId) => ({
    kind: 'script',
    scriptUrl: 'https://cdn.cpx-research.com/assets/js/script_tag_v2.0.js',
    config: { app_id: Number(c.appId), ext_user_id: userId, secure_hash: md5Hex(`${userId}-${c.secret}`) },
  }),

  verify: (_d, p, c) => sameDigest(p.get('secure_hash'), hashOf(p.get('trans_id') ?? '', c.secret)),

  read(p) {
    const transaction = transactionId(p, 'trans_id');
    const status = required(p, 'status');
    if (status !== '1' && status !== '2') throw new PostbackFormatError('invalid', `unknown status ${status}`);
    const action = status === '2' ? 'reverse' : 'credit';
    return {
      transactionId: transaction,
      creditTransactionId: transaction,
      userId: userIdOf(required(p, 'user_id')),
      action,
      points: pointsOf(action, amount(p, 'amount_local'), 'amount_local'),
      // CPX Research is a survey wall: everything it pays but its bonuses is a survey.
      kind: p.get('type') === 'bonus' ? 'other' : 'survey',
    };
  },

  sign(c, e, endpoint) {
    return withQuery(endpoint, {
      status: e.action === 'reverse' ? '2' : '1',
      trans_id: e.transactionId,
      user_id: e.userId,
      amount_local: String(e.offer.points),
      amount_usd: (e.offer.points / 1000).toFixed(2),
      offer_id: e.offer.id,
      type: 'complete',
      ip_click: e.userIp,
      secure_hash: hashOf(e.transactionId, c.secret),
    });
  },
};
