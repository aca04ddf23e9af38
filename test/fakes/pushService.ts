import crypto from 'node:crypto';
import type http from 'node:http';
import { LoopbackFake } from './loopbackFake';

/**
 * A push service on loopback, written from the IETF specifications (not from any library's code):
 * - RFC 8030 (Generic Event Delivery Using HTTP Push) §5: the application server POSTs a push message to
 *   the subscription's push resource; TTL is required (400 without it); the service answers 201 Created
 *   with a Location for the message; §7.3: a subscription that expired answers 404/410 (here: 410 Gone for
 *   an endpoint marked gone).
 * - RFC 8292 (VAPID) §2-§3: `Authorization: vapid t=<JWT>, k=<public key>`; the JWT is ES256 (signature
 *   R||S, 64 bytes), its `aud` claim must be the origin of the push resource, `exp` at most 24 hours ahead
 *   (and not past), `sub` a mailto: or https: contact; the signature is verified against `k`, the
 *   uncompressed P-256 point (base64url). A failure answers 403 (§4.2: 403 for an invalid JWT).
 * - RFC 8291 (Message Encryption for Web Push) over RFC 8188 (aes128gcm): the fake plays the user agent,
 *   holds each subscription's private key and auth secret, and decrypts the body:
 *     ecdh_secret = ECDH(ua_private, as_public)             (as_public = the header's keyid)
 *     PRK_key     = HMAC-SHA-256(auth_secret, ecdh_secret)
 *     IKM         = HMAC-SHA-256(PRK_key, "WebPush: info" || 0x00 || ua_public || as_public || 0x01)
 *     PRK         = HMAC-SHA-256(salt, IKM)
 *     CEK         = HMAC-SHA-256(PRK, "Content-Encoding: aes128gcm" || 0x00 || 0x01)[0..16]
 *     NONCE       = HMAC-SHA-256(PRK, "Content-Encoding: nonce" || 0x00 || 0x01)[0..12]
 *   The body is header (salt 16 | rs uint32 | idlen 1 | keyid) then records of AES-128-GCM (tag 16 bytes
 *   at the end); a record's plaintext ends with the delimiter 0x02 (last record) or 0x01, then zero padding.
 */

export interface PushSubscriptionKeys {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

export interface ReceivedPush {
  /** The subscription id (last path segment of the endpoint). */
  id: string;
  headers: http.IncomingHttpHeaders;
  /** The decrypted payload (JSON.parse of the plaintext), or undefined if it was not JSON. */
  json: any;
  plaintext: string;
  /** The VAPID JWT's claims, once verified. */
  claims: { aud: string; exp: number; sub?: string };
  /** The VAPID public key (k) the request was signed with. */
  vapidKey: string;
}

interface Subscriber {
  ecdh: crypto.ECDH;
  publicKey: Buffer;
  auth: Buffer;
}

function hmac(key: Buffer, data: Buffer): Buffer {
  return crypto.createHmac('sha256', key).update(data).digest();
}

export class PushServiceFake extends LoopbackFake {
  readonly received: ReceivedPush[] = [];
  /** Requests refused, with the reason (bad VAPID, missing TTL, undecryptable body…). */
  readonly refused: { id: string; status: number; reason: string }[] = [];
  private readonly subscribers = new Map<string, Subscriber>();
  private readonly gone = new Set<string>();
  private next = 1;
  private waiters: (() => void)[] = [];

  /** A new browser subscription at this service: what PushSubscription.toJSON() would give the page. */
  subscribe(): PushSubscriptionKeys {
    const id = `sub-${this.next++}-${crypto.randomBytes(6).toString('hex')}`;
    const ecdh = crypto.createECDH('prime256v1');
    ecdh.generateKeys();
    const sub: Subscriber = { ecdh, publicKey: ecdh.getPublicKey(), auth: crypto.randomBytes(16) };
    this.subscribers.set(id, sub);
    return { endpoint: `${this.url}/push/${id}`, keys: { p256dh: sub.publicKey.toString('base64url'), auth: sub.auth.toString('base64url') } };
  }

  /** From now on the endpoint answers 410 Gone (the user revoked the permission, the subscription expired). */
  markGone(endpoint: string): void {
    this.gone.add(endpoint.split('/').pop()!);
  }

  pushesFor(endpoint: string): ReceivedPush[] {
    const id = endpoint.split('/').pop();
    return this.received.filter((p) => p.id === id);
  }

  /** Resolves once `predicate` holds over what arrived (checked on each request), or rejects after `ms`. */
  async waitFor(predicate: () => boolean, ms = 5000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!predicate()) {
      if (Date.now() > deadline) throw new Error('push service fake: timed out waiting');
      await new Promise<void>((r) => {
        const t = setTimeout(r, 50);
        this.waiters.push(() => {
          clearTimeout(t);
          r();
        });
      });
    }
  }

  protected async handle(req: http.IncomingMessage, res: http.ServerResponse, raw: Buffer): Promise<void> {
    const m = /^\/push\/([A-Za-z0-9-]+)$/.exec(req.url ?? '');
    const id = m?.[1] ?? '';
    const answer = (status: number, reason?: string) => {
      if (reason) this.refused.push({ id, status, reason });
      res.writeHead(status, status === 201 ? { location: `${this.url}/message/${crypto.randomUUID()}` } : {});
      res.end();
      for (const w of this.waiters.splice(0)) w();
    };
    if (req.method !== 'POST' || !m) return answer(404, 'not a push resource');
    if (this.gone.has(id)) return answer(410, 'gone');
    const sub = this.subscribers.get(id);
    if (!sub) return answer(404, 'unknown subscription');
    if (req.headers.ttl === undefined || !/^\d+$/.test(String(req.headers.ttl))) return answer(400, 'TTL header missing (RFC 8030 §5.2)');

    let claims: ReceivedPush['claims'];
    let vapidKey: string;
    try {
      ({ claims, key: vapidKey } = this.verifyVapid(String(req.headers.authorization ?? '')));
    } catch (err) {
      return answer(403, `VAPID: ${(err as Error).message}`);
    }

    if (req.headers['content-encoding'] !== 'aes128gcm') return answer(415, 'Content-Encoding must be aes128gcm');
    let plaintext: string;
    try {
      plaintext = this.decrypt(sub, raw).toString('utf8');
    } catch (err) {
      return answer(400, `decryption: ${(err as Error).message}`);
    }
    let json: any;
    try {
      json = JSON.parse(plaintext);
    } catch {
      json = undefined;
    }
    this.received.push({ id, headers: req.headers, json, plaintext, claims, vapidKey });
    answer(201);
  }

  /** RFC 8292 §2-§3: the vapid scheme's t (JWT) and k (public key) parameters, the JWT checked against k. */
  private verifyVapid(header: string): { claims: ReceivedPush['claims']; key: string } {
    const scheme = /^vapid\s+(.*)$/i.exec(header);
    if (!scheme) throw new Error('Authorization is not the vapid scheme');
    const params = new Map<string, string>();
    for (const part of scheme[1].split(',')) {
      const eq = part.indexOf('=');
      if (eq > 0) params.set(part.slice(0, eq).trim().toLowerCase(), part.slice(eq + 1).trim());
    }
    const t = params.get('t');
    const k = params.get('k');
    if (!t || !k) throw new Error('t and k parameters are required');
    const point = Buffer.from(k, 'base64url');
    if (point.length !== 65 || point[0] !== 0x04) throw new Error('k is not an uncompressed P-256 point');
    const [h, p, s] = t.split('.');
    if (!h || !p || !s) throw new Error('t is not a JWS compact serialization');
    const jose = JSON.parse(Buffer.from(h, 'base64url').toString('utf8')) as { alg?: string };
    if (jose.alg !== 'ES256') throw new Error(`alg ${jose.alg} is not ES256`);
    const key = crypto.createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') }, format: 'jwk' });
    const signature = Buffer.from(s, 'base64url');
    if (signature.length !== 64) throw new Error('ES256 signature is not 64 bytes (R||S)');
    if (!crypto.verify('sha256', Buffer.from(`${h}.${p}`), { key, dsaEncoding: 'ieee-p1363' }, signature)) throw new Error('signature does not verify against k');
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString('utf8')) as ReceivedPush['claims'];
    if (claims.aud !== this.url) throw new Error(`aud ${claims.aud} is not the push resource origin ${this.url}`);
    const now = Math.floor(Date.now() / 1000);
    if (typeof claims.exp !== 'number' || claims.exp <= now) throw new Error('exp missing or past');
    if (claims.exp > now + 24 * 60 * 60) throw new Error('exp more than 24 hours ahead');
    if (claims.sub !== undefined && !/^(mailto:|https:)/.test(claims.sub)) throw new Error('sub is neither mailto: nor https:');
    return { claims, key: k };
  }

  /** RFC 8291 §3.3-§3.4 over RFC 8188 §2: the user agent's side. */
  private decrypt(sub: Subscriber, body: Buffer): Buffer {
    if (body.length < 21) throw new Error('body shorter than the aes128gcm header');
    const salt = body.subarray(0, 16);
    const rs = body.readUInt32BE(16);
    const idlen = body[20];
    const asPublic = body.subarray(21, 21 + idlen);
    if (idlen !== 65 || asPublic[0] !== 0x04) throw new Error('keyid is not the application server public key (RFC 8291 §4)');
    if (rs < 18) throw new Error('record size too small');
    const ecdhSecret = sub.ecdh.computeSecret(asPublic);
    const prkKey = hmac(sub.auth, ecdhSecret);
    const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0', 'latin1'), sub.publicKey, asPublic, Buffer.from([1])]);
    const ikm = hmac(prkKey, keyInfo);
    const prk = hmac(salt, ikm);
    const cek = hmac(prk, Buffer.from('Content-Encoding: aes128gcm\0\x01', 'latin1')).subarray(0, 16);
    const baseNonce = hmac(prk, Buffer.from('Content-Encoding: nonce\0\x01', 'latin1')).subarray(0, 12);
    const records = body.subarray(21 + idlen);
    const out: Buffer[] = [];
    for (let offset = 0, seq = 0; offset < records.length; offset += rs, seq++) {
      const record = records.subarray(offset, Math.min(offset + rs, records.length));
      const nonce = Buffer.from(baseNonce);
      // The record sequence number XORed into the nonce's low-order bytes (RFC 8188 §2.3; seq < 2^32 here).
      nonce.writeUInt32BE((nonce.readUInt32BE(8) ^ seq) >>> 0, 8);
      const decipher = crypto.createDecipheriv('aes-128-gcm', cek, nonce);
      decipher.setAuthTag(record.subarray(record.length - 16));
      const plain = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
      let end = plain.length - 1;
      while (end >= 0 && plain[end] === 0) end--;
      const last = offset + rs >= records.length;
      if (end < 0 || plain[end] !== (last ? 2 : 1)) throw new Error('bad padding delimiter');
      out.push(plain.subarray(0, end));
    }
    return Buffer.concat(out);
  }
}
