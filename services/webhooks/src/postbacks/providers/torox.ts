import { amount, offerNameOf, required, toPoints, transactionId, userIdOf, withQuery } from './postback-params';
import { OfferwallProvider } from './offerwall-provider';
import { md5Hex, sameDigest } from './hashing';
import { taskKindOf } from './task-kind';

/**
 * Torox, formerly OfferToro (offertoro.com/docs/postback).
 * - Wall: https://www.offertoro.com/ifr/show/<publisher id>/<user id>/<app id>.
 * - Postback (minimal parameters): id (conversion id), oid (offer id), amount (our points),
 *   currency_name, user_id, payout, sig; o_name (the offer's name) where configured, which
 *   names the task's kind.
 * - sig = md5(oid + "-" + user_id + "-" + app secret key). It does not cover the amount or the
 *   conversion id: the allow-list (TOROX_ALLOWED_IPS), the unique conversion and
 *   POSTBACK_MAX_POINTS guard those.
 * - Reversal (chargeback): the same conversion id with a negative amount.
 */
const sigOf = (offerId: string, userId: string, secret: string) => md5Hex(`${offerId}-${userId}-${secret}`);

export const torox: OfferwallProvider<'publisherId' | 'appId' | 'secret'> = {
  id: 'torox',
  name: 'Torox',
  credentials: { publisherId: 'TOROX_PUB_ID', appId: 'TOROX_APP_ID', secret: 'TOROX_SECRET_KEY' },
  allowedIps: 'TOROX_ALLOWED_IPS',
  signatureCovers: { user: true, transactionId: false, amount: false, action: false },
  ack: '1',
  transactionParam: 'id',
  userParam: 'user_id',

  externalUserId: (_c, userId) => userId,

  embed: (c, userId) => ({
    kind: 'iframe',
    url: `https://www.offertoro.com/ifr/show/${encodeURIComponent(c.publisherId)}/${encodeURIComponent(userId)}/${encodeURIComponent(c.appId)}`,
  }),

  verify: (_d, p, c) => sameDigest(p.get('sig'), sigOf(p.get('oid') ?? '', p.get('user_id') ?? '', c.secret)),

  read(p) {
    const conversion = transactionId(p, 'id');
    const value = amount(p, 'amount');
    required(p, 'oid');
    return {
      transactionId: conversion,
      creditTransactionId: conversion,
      userId: userIdOf(required(p, 'user_id')),
      action: value < 0 ? 'reverse' : 'credit',
      points: toPoints(value),
      kind: taskKindOf(p.get('o_name'), 'offer'),
      ...offerNameOf(p, 'o_name'),
    };
  },

  sign(c, e, endpoint) {
    const sign = e.action === 'reverse' ? -1 : 1;
    return withQuery(endpoint, {
      id: e.transactionId,
      oid: e.offer.id,
      o_name: e.offer.name,
      amount: String(sign * e.offer.points),
      currency_name: 'MB',
      user_id: e.userId,
      payout: ((sign * e.offer.points) / 1000).toFixed(2),
      sig: sigOf(e.offer.id, e.userId, c.secret),
    });
  },
};
