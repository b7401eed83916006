import { execFileSync } from 'node:child_process';
import { createECDH, createDecipheriv, createHmac, createPublicKey, randomBytes, verify } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface ReceivedPush {
  /** The path segment after /push/: which subscription it was for. */
  id: string;
  /** The VAPID JWT's claims, after its signature was checked with the announced public key. */
  claims: { aud: string; exp: number; sub: string };
  /** The message as the browser decrypts it (RFC 8291). */
  message: unknown;
  ttl: string | undefined;
}

/** A browser's side of one subscription: the keys the push is encrypted to, as PushSubscription.toJSON() gives them. */
export interface TestSubscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

const b64url = (b: Buffer) => b.toString('base64url');
const hmac = (key: Buffer, data: Buffer) => createHmac('sha256', key).update(data).digest();

/**
 * A push service for tests, over HTTPS with a certificate of its own (`caFile`, which the
 * notifications service is told to trust), standing where FCM or Mozilla's autopush would: it
 * accepts a push only with a VAPID `Authorization: vapid t=<JWT>, k=<key>` whose ES256 signature
 * verifies with `k`, whose `aud` is its own origin and whose `exp` has not passed (RFC 8292), and
 * answers 201; a subscription marked gone answers 410. It also plays the browser: it decrypts each
 * push with the subscription's private key (RFC 8291), so a test can read what the user would see.
 */
export class TestPushService {
  readonly received: ReceivedPush[] = [];
  readonly refused: string[] = [];
  readonly caFile: string;
  private readonly dir: string;
  private readonly server: Server;
  private readonly browsers = new Map<string, { ecdh: ReturnType<typeof createECDH>; auth: Buffer }>();
  private readonly gone = new Set<string>();
  origin = '';

  constructor() {
    this.dir = mkdtempSync(path.join(tmpdir(), 'push-service-'));
    const key = path.join(this.dir, 'key.pem');
    this.caFile = path.join(this.dir, 'cert.pem');
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', key, '-out', this.caFile,
      '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1',
    ], { stdio: 'ignore' });
    this.server = createServer({ key: readFileSync(key), cert: readFileSync(this.caFile) }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const id = (req.url ?? '').replace(/^\/push\//, '');
        try {
          const claims = this.checkVapid(req.headers.authorization);
          if (this.gone.has(id)) {
            res.writeHead(410).end();
            return;
          }
          const browser = this.browsers.get(id);
          if (!browser) throw new Error(`no subscription ${id}`);
          const message = JSON.parse(decrypt(Buffer.concat(chunks), browser.ecdh, browser.auth).toString('utf8'));
          this.received.push({ id, claims, message, ttl: req.headers.ttl as string | undefined });
          res.writeHead(201).end();
        } catch (err) {
          this.refused.push((err as Error).message);
          res.writeHead(403).end((err as Error).message);
        }
      });
    });
  }

  /** The public key the service must announce (GET /api/push/public-key): pushes signed with another are refused. */
  vapidPublicKey = '';

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()));
    this.origin = `https://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** A new browser subscription at this service, as pushManager.subscribe() would make one. */
  subscription(id: string, opts: { gone?: boolean } = {}): TestSubscription {
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    const auth = randomBytes(16);
    this.browsers.set(id, { ecdh, auth });
    if (opts.gone) this.gone.add(id);
    return { endpoint: `${this.origin}/push/${id}`, keys: { p256dh: b64url(ecdh.getPublicKey()), auth: b64url(auth) } };
  }

  pushesTo(id: string): ReceivedPush[] {
    return this.received.filter((p) => p.id === id);
  }

  async stop(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
    await closed;
    rmSync(this.dir, { recursive: true, force: true });
  }

  private checkVapid(header: string | undefined): ReceivedPush['claims'] {
    const m = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? '');
    if (!m) throw new Error(`no VAPID authorization: ${header}`);
    const [, jwt, k] = m;
    if (k !== this.vapidPublicKey) throw new Error('VAPID key is not the one the site announced');
    const [head, body, signature] = jwt.split('.');
    const header64 = JSON.parse(Buffer.from(head, 'base64url').toString());
    if (header64.alg !== 'ES256') throw new Error(`VAPID JWT alg ${header64.alg}`);
    const raw = Buffer.from(k, 'base64url');
    const key = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: b64url(raw.subarray(1, 33)), y: b64url(raw.subarray(33, 65)) }, format: 'jwk' });
    if (!verify('sha256', Buffer.from(`${head}.${body}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'))) {
      throw new Error('VAPID JWT signature does not verify');
    }
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString());
    if (claims.aud !== this.origin) throw new Error(`VAPID aud ${claims.aud} is not ${this.origin}`);
    if (!(claims.exp * 1000 > Date.now())) throw new Error('VAPID JWT expired');
    return claims;
  }
}

/** RFC 8291 (aes128gcm, one record): what a browser does with a push it receives. */
function decrypt(body: Buffer, ecdh: ReturnType<typeof createECDH>, authSecret: Buffer): Buffer {
  const salt = body.subarray(0, 16);
  const idlen = body[20];
  const serverPublic = body.subarray(21, 21 + idlen);
  const ciphertext = body.subarray(21 + idlen);
  const shared = ecdh.computeSecret(serverPublic);
  const prkKey = hmac(authSecret, shared);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), ecdh.getPublicKey(), serverPublic, Buffer.from([1])]);
  const ikm = hmac(prkKey, keyInfo);
  const prk = hmac(salt, ikm);
  const cek = hmac(prk, Buffer.from('Content-Encoding: aes128gcm\0\x01', 'binary')).subarray(0, 16);
  const nonce = hmac(prk, Buffer.from('Content-Encoding: nonce\0\x01', 'binary')).subarray(0, 12);
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error('not a last record');
  return padded.subarray(0, end);
}
