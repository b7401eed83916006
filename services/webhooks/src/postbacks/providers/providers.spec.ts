import { createHash, createHmac } from 'node:crypto';
import type { PostbackDelivery } from '../postback-delivery';
import { collectParams } from './postback-params';
import { bitLabs } from './bitlabs';
import { cpxResearch } from './cpx-research';
import { lootably } from './lootably';
import { EmulatedPostback } from './offerwall-provider';
import { rapidoReach } from './rapidoreach';
import { taskKindOf } from './task-kind';
import { torox } from './torox';

const md5 = (s: string) => createHash('md5').update(s).digest('hex');
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const hmacSha1 = (key: string, s: string) => createHmac('sha1', key).update(s).digest('hex');

const USER = '1b4e28ba-2fa1-11d2-883f-0016d3cca427';
const ENDPOINT = 'https://app.example/webhooks/offerwalls/x';

function delivery(url: string): PostbackDelivery {
  const query: Record<string, string | string[]> = {};
  for (const [k, v] of new URL(url).searchParams) query[k] = query[k] === undefined ? v : [query[k] as string, v];
  return { provider: 'cpx', method: 'GET', fullUrl: url, query, body: null, headers: {}, sourceIp: '127.0.0.1' };
}
const paramsOf = (url: string) => collectParams(delivery(url)).params;
const postback = (action: 'credit' | 'reverse' = 'credit'): EmulatedPostback => ({
  userId: USER,
  transactionId: 'TX-42',
  action,
  offer: { id: '777', name: 'Install game app', category: 'app', points: 120 },
  userIp: '198.51.100.4',
});

describe('RapidoReach', () => {
  const creds = { appId: 'A1b2', appKey: 'app-key', secret: 'app-secret' };
  const internal = '1b4e28ba2fa111d2883f0016d3cca427';
  const uid = `${internal}-A1b2-${md5(`${internal}-A1b2-app-key`)}`;

  it('builds the uid userId-appId-md5(userId-appId-appKey) from the UUID without hyphens, and the iframe URL', () => {
    expect(rapidoReach.externalUserId(creds, USER)).toBe(uid);
    expect(rapidoReach.embed(creds, USER)).toEqual({
      kind: 'iframe',
      url: `https://www.rapidoreach.com/ofw/?userId=${encodeURIComponent(uid)}`,
    });
  });

  it('verifies txnHash = md5(transactionId + app secret) and the uid checksum, and reads the callback', () => {
    const url = `${ENDPOINT}?cmd=transactionComplete&userId=${uid}&endUserId=${internal}&amt=0.12&status=C&currencyAmt=120&transactionId=TX-42&offerType=survey&txnHash=${md5('TX-42app-secret')}`;
    expect(rapidoReach.verify(delivery(url), paramsOf(url), creds)).toBe(true);
    expect(rapidoReach.read(paramsOf(url))).toEqual({
      transactionId: 'TX-42',
      creditTransactionId: 'TX-42',
      userId: USER,
      action: 'credit',
      points: 120,
      kind: 'survey',
    });
    const otherUser = url.replace(`endUserId=${internal}`, `endUserId=${internal.replace('1b4e', '2b4e')}`);
    expect(rapidoReach.verify(delivery(otherUser), paramsOf(otherUser), creds)).toBe(false);
    expect(rapidoReach.verify(delivery(url), paramsOf(url), { ...creds, secret: 'wrong' })).toBe(false);
  });

  it('signs what it verifies; a negative currencyAmt is a reversal', () => {
    const signed = rapidoReach.sign(creds, postback('reverse'), ENDPOINT);
    const p = paramsOf(signed);
    expect(p.get('txnHash')).toBe(md5('TX-42app-secret'));
    expect(rapidoReach.verify(delivery(signed), p, creds)).toBe(true);
    expect(rapidoReach.read(p)).toMatchObject({ action: 'reverse', points: 120, kind: 'app_install' });
  });
});

describe('CPX Research', () => {
  const creds = { appId: '12345', secret: 'secure-hash' };

  it('configures the script widget with secure_hash = md5(ext_user_id-secure hash)', () => {
    expect(cpxResearch.embed(creds, USER)).toEqual({
      kind: 'script',
      scriptUrl: 'https://cdn.cpx-research.com/assets/js/script_tag_v2.0.js',
      config: { app_id: 12345, ext_user_id: USER, secure_hash: md5(`${USER}-secure-hash`) },
    });
  });

  it('verifies secure_hash = md5(trans_id-secure hash); status 1 credits, status 2 reverses', () => {
    const url = `${ENDPOINT}?status=1&trans_id=T7&user_id=${USER}&amount_local=75.00&amount_usd=0.08&type=complete&secure_hash=${md5('T7-secure-hash')}`;
    expect(cpxResearch.verify(delivery(url), paramsOf(url), creds)).toBe(true);
    expect(cpxResearch.read(paramsOf(url))).toEqual({
      transactionId: 'T7',
      creditTransactionId: 'T7',
      userId: USER,
      action: 'credit',
      points: 75,
      kind: 'survey',
    });
    expect(cpxResearch.read(paramsOf(url.replace('status=1', 'status=2')))).toMatchObject({ action: 'reverse', creditTransactionId: 'T7' });
    expect(() => cpxResearch.read(paramsOf(url.replace('status=1', 'status=9')))).toThrow(/unknown status/);
    const wrong = url.replace(md5('T7-secure-hash'), md5('T8-secure-hash'));
    expect(cpxResearch.verify(delivery(wrong), paramsOf(wrong), creds)).toBe(false);
  });

  it('signs what it verifies', () => {
    const signed = cpxResearch.sign(creds, postback(), ENDPOINT);
    expect(paramsOf(signed).get('secure_hash')).toBe(md5('TX-42-secure-hash'));
    expect(cpxResearch.verify(delivery(signed), paramsOf(signed), creds)).toBe(true);
  });
});

describe('BitLabs', () => {
  const creds = { appId: 'app-token', secret: 'app-secret' };

  it('verifies hash = HMAC-SHA1(app secret, the URL exactly as received up to &hash=)', () => {
    const base = `${ENDPOINT}?uid=${USER}&tx=B1&val=250.5&usd=0.25&type=COMPLETE&ref=&offer_name=Survey%20%231`;
    const url = `${base}&hash=${hmacSha1('app-secret', base)}`;
    expect(bitLabs.verify(delivery(url), paramsOf(url), creds)).toBe(true);
    expect(bitLabs.read(paramsOf(url))).toEqual({
      transactionId: 'B1',
      creditTransactionId: 'B1',
      userId: USER,
      action: 'credit',
      points: 251,
      kind: 'survey',
      offerName: 'Survey #1',
    });
    for (const tampered of [
      url.replace('val=250.5', 'val=2500.5'),
      url.replace('https://app.example', 'https://evil.example'),
      url.replace('%20', '+'),
      base,
    ]) {
      expect(bitLabs.verify(delivery(tampered), paramsOf(tampered), creds)).toBe(false);
    }
  });

  it('a RECONCILIATION reverses the COMPLETE its ref names; START_BONUS is "other"', () => {
    const signed = bitLabs.sign(creds, postback('reverse'), ENDPOINT);
    expect(bitLabs.verify(delivery(signed), paramsOf(signed), creds)).toBe(true);
    expect(bitLabs.read(paramsOf(signed))).toEqual({
      transactionId: 'TX-42-R',
      creditTransactionId: 'TX-42',
      userId: USER,
      action: 'reverse',
      points: 120,
      kind: 'app_install',
      offerName: 'Install game app',
    });
    const bonus = `${ENDPOINT}?uid=${USER}&tx=B2&val=10&type=START_BONUS`;
    expect(bitLabs.read(paramsOf(bonus))).toMatchObject({ action: 'credit', kind: 'other' });
  });
});

describe('Lootably', () => {
  const creds = { appId: 'placement', secret: 'postback-secret' };

  it('verifies hash = sha256(userID + ip + revenue + currencyReward + secret), which covers the amount', () => {
    const hash = sha256(`${USER}198.51.100.40.5000100.00postback-secret`);
    const url = `${ENDPOINT}?userID=${USER}&transactionID=L1&ip=198.51.100.4&offerName=Watch%20a%20video&revenue=0.5000&currencyReward=100.00&hash=${hash}`;
    expect(lootably.verify(delivery(url), paramsOf(url), creds)).toBe(true);
    expect(lootably.read(paramsOf(url))).toEqual({
      transactionId: 'L1',
      creditTransactionId: 'L1',
      userId: USER,
      action: 'credit',
      points: 100,
      kind: 'video_ad',
      offerName: 'Watch a video',
    });
    const tampered = url.replace('currencyReward=100.00', 'currencyReward=1000.00');
    expect(lootably.verify(delivery(tampered), paramsOf(tampered), creds)).toBe(false);
  });

  it('signs what it verifies; a negative currencyReward reverses', () => {
    const signed = lootably.sign(creds, postback('reverse'), ENDPOINT);
    expect(lootably.verify(delivery(signed), paramsOf(signed), creds)).toBe(true);
    expect(lootably.read(paramsOf(signed))).toMatchObject({ action: 'reverse', points: 120, kind: 'app_install' });
  });
});

describe('Torox', () => {
  const creds = { publisherId: '14', appId: '5', secret: 'secret-key' };

  it('embeds /ifr/show/<pub>/<user>/<app> and verifies sig = md5(oid-user_id-secret)', () => {
    expect(torox.embed(creds, USER)).toEqual({ kind: 'iframe', url: `https://www.offertoro.com/ifr/show/14/${USER}/5` });
    const url = `${ENDPOINT}?id=C9&oid=777&amount=-300&currency_name=MB&user_id=${USER}&payout=0.30&sig=${md5(`777-${USER}-secret-key`)}`;
    expect(torox.verify(delivery(url), paramsOf(url), creds)).toBe(true);
    expect(torox.read(paramsOf(url))).toEqual({
      transactionId: 'C9',
      creditTransactionId: 'C9',
      userId: USER,
      action: 'reverse',
      points: 300,
      kind: 'offer',
    });
    const otherOffer = url.replace('oid=777', 'oid=778');
    expect(torox.verify(delivery(otherOffer), paramsOf(otherOffer), creds)).toBe(false);
  });
});

describe('shared reading rules', () => {
  it('refuses repeated parameters, and reads a POST form body too', () => {
    const d = delivery(`${ENDPOINT}?trans_id=1&trans_id=2&a=1`);
    expect(collectParams(d).repeated).toEqual(['trans_id']);
    const post: PostbackDelivery = { ...d, method: 'POST', query: { a: '1' }, body: { b: '2', a: '3' } };
    expect(collectParams(post)).toEqual({
      params: new Map([
        ['a', '1'],
        ['b', '2'],
      ]),
      repeated: ['a'],
    });
  });

  it('refuses amounts that are not plain decimals, and ids that are not transaction ids', () => {
    for (const amount of ['', 'abc', '1e9', '0x10', '12,5', 'Infinity']) {
      expect(() =>
        cpxResearch.read(paramsOf(`${ENDPOINT}?status=1&trans_id=T&user_id=${USER}&amount_local=${encodeURIComponent(amount)}`)),
      ).toThrow(/not an amount/);
    }
    expect(() => cpxResearch.read(paramsOf(`${ENDPOINT}?status=1&trans_id=${'x'.repeat(200)}&user_id=${USER}&amount_local=1`))).toThrow(
      /trans_id/,
    );
    expect(cpxResearch.read(paramsOf(`${ENDPOINT}?status=1&trans_id=T&user_id=not-a-user&amount_local=1`)).userId).toBeNull();
  });

  it('reads the walls\' categories and offer names into one kind each (task-kind.ts)', () => {
    expect(taskKindOf('survey', 'other')).toBe('survey');
    expect(taskKindOf('Video survey', 'other')).toBe('survey');
    expect(taskKindOf('Shop online', 'other')).toBe('purchase');
    expect(taskKindOf('Install game app', 'other')).toBe('app_install');
    expect(taskKindOf('Reach level 10 in Puzzle Quest', 'other')).toBe('game');
    expect(taskKindOf('Watch video (30 second ad)', 'other')).toBe('video_ad');
    expect(taskKindOf('Sign up for a free trial', 'other')).toBe('signup');
    expect(taskKindOf('Daily offer', 'other')).toBe('offer');
    expect(taskKindOf('something else', 'other')).toBe('other');
    expect(taskKindOf(undefined, 'survey')).toBe('survey');
  });

  it('gives the same offer the same kind on every wall that names it', () => {
    const walls = [
      ['rapidoreach', rapidoReach.sign({ appId: 'A1b2', appKey: 'k', secret: 's' }, postback(), ENDPOINT), rapidoReach],
      ['bitlabs', bitLabs.sign({ appId: 'a', secret: 's' }, postback(), ENDPOINT), bitLabs],
      ['lootably', lootably.sign({ appId: 'a', secret: 's' }, postback(), ENDPOINT), lootably],
      ['torox', torox.sign({ publisherId: '1', appId: '2', secret: 's' }, postback(), ENDPOINT), torox],
    ] as const;
    const kinds = Object.fromEntries(walls.map(([id, url, wall]) => [id, wall.read(paramsOf(url)).kind]));
    expect(kinds).toEqual({ rapidoreach: 'app_install', bitlabs: 'app_install', lootably: 'app_install', torox: 'app_install' });
  });
});
