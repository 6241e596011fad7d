/**
 * Opaque, tamper-evident list cursors: base64url(JSON of the last item's sort key) + "." + HMAC-SHA256 of it
 * under a per-start secret, keyed also by the account it was issued to. A forged, truncated or foreign cursor —
 * another account's included — fails the MAC and is answered 400 instead of silently paging from somewhere else.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { SortKey } from '../store/inbound-messages.ts';

export class CursorCodec {
  readonly #secret = randomBytes(32);

  encode(key: SortKey, accountId: string): string {
    const payload = Buffer.from(JSON.stringify([key.t, key.id]), 'utf8').toString('base64url');
    return `${payload}.${this.#mac(payload, accountId)}`;
  }

  /** The sort key, or null for anything this codec did not issue to `accountId`. */
  decode(cursor: string, accountId: string): SortKey | null {
    const [payload, mac, extra] = cursor.split('.');
    if (!payload || !mac || extra !== undefined) return null;
    // Compare the text, not decoded bytes: base64url decoding ignores stray characters and padding bits, so
    // two different strings can decode to the same bytes.
    const expected = Buffer.from(this.#mac(payload, accountId), 'utf8');
    const given = Buffer.from(mac, 'utf8');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    try {
      const value: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
      if (Array.isArray(value) && typeof value[0] === 'number' && typeof value[1] === 'string') {
        return { t: value[0], id: value[1] };
      }
    } catch {
      // fall through: a correctly signed payload is always valid JSON, so this is unreachable in practice
    }
    return null;
  }

  #mac(payload: string, accountId: string): string {
    return createHmac('sha256', this.#secret).update(`${accountId}\u0000${payload}`).digest('base64url');
  }
}
