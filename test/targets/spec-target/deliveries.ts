/**
 * Webhook delivery of the spec-only target (SERVICE-SPEC §6: events for incoming messages and delivery status;
 * registration, payloads, retries and signatures: not shown). Its choices: Standard Webhooks headers, but the
 * HMAC is keyed by the secret's raw UTF-8 bytes (a legal reading of "keyed by the secret", unlike the `whsec_`
 * base64 key of the Standard Webhooks libraries); non-2xx answers are retried 4 times with back-off, same id.
 * Deliveries go only to loopback (this is a test target) and every timer is dropped on close.
 */
import { createHmac, randomUUID } from 'node:crypto';
import type { SpecState } from './state.ts';

const ATTEMPTS = 4;
const BASE_DELAY_MS = 200;
const TIMEOUT_MS = 3000;

export class Deliveries {
  readonly #timers = new Set<NodeJS.Timeout>();
  readonly #aborts = new Set<AbortController>();
  #closed = false;

  constructor(private readonly state: SpecState) {}

  emit(type: 'message.received' | 'message.status', data: Record<string, unknown>): void {
    for (const hook of this.state.webhooks.values()) {
      if (!hook.events.includes(type)) continue;
      const event = { id: `evt_${randomUUID()}`, type, created_at: new Date().toISOString(), data };
      this.#attempt(hook.id, hook.url, hook.secret, event.id, JSON.stringify(event), 1);
    }
  }

  #attempt(hookId: string, url: string, secret: string, id: string, body: string, attempt: number): void {
    // A deleted webhook gets nothing more, retries of earlier events included.
    if (this.#closed || !isLoopback(url) || !this.state.webhooks.has(hookId)) return;
    const timestamp = String(Math.floor(Date.now() / 1000));
    const signature = createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${id}.${timestamp}.${body}`).digest('base64');
    const abort = new AbortController();
    this.#aborts.add(abort);
    const timer = setTimeout(() => abort.abort(), TIMEOUT_MS);
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${signature}` },
      body,
      // A delivery never follows a redirect (OWASP API7): a 3xx is an unsuccessful attempt, retried like any other.
      redirect: 'manual',
      signal: abort.signal,
    })
      .then(async (res) => {
        await res.arrayBuffer();
        return res.status >= 200 && res.status < 300;
      })
      .catch(() => false)
      .then((ok) => {
        clearTimeout(timer);
        this.#aborts.delete(abort);
        if (ok || attempt >= ATTEMPTS || this.#closed) return;
        const retry = setTimeout(() => {
          this.#timers.delete(retry);
          this.#attempt(hookId, url, secret, id, body, attempt + 1);
        }, BASE_DELAY_MS * 2 ** (attempt - 1));
        this.#timers.add(retry);
      });
  }

  later(ms: number, fn: () => void): void {
    if (this.#closed) return;
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      fn();
    }, ms);
    this.#timers.add(timer);
  }

  close(): void {
    this.#closed = true;
    for (const timer of this.#timers) clearTimeout(timer);
    for (const abort of this.#aborts) abort.abort();
  }
}

function isLoopback(url: string): boolean {
  try {
    const host = new URL(url).hostname;
    return host === '127.0.0.1' || host === 'localhost' || host === '[::1]';
  } catch {
    return false;
  }
}
