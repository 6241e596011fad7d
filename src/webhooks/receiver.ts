/**
 * The harness's webhook receiver: a plain HTTP server (127.0.0.1, ephemeral port unless configured) that records
 * every delivery — raw body, headers, arrival time — and answers 204, or 500 on purpose for the first
 * `failAttempts` attempts of each `webhook-id` so that retries can be observed.
 *
 * Bounded: at most `maxDeliveries` deliveries are kept (the oldest go first; `dropped` counts them) and bodies
 * above `maxBodyBytes` are cut. A target that cannot reach this machine is given `publicUrl` instead (a tunnel or
 * relay that forwards to receiverHost:receiverPort). Close it when the run ends.
 *
 * Not tied to the conformance checks: a throughput scenario can start one, register `url`, and read `deliveries`
 * and `webhookStats()` (stats.ts) afterwards.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedDelivery {
  /** 1, 2, 3 … in arrival order. */
  seq: number;
  /** Wall-clock arrival in ms since epoch, taken when the request's headers arrived. */
  receivedAt: number;
  method: string;
  /** Path and query as requested. */
  path: string;
  /** Header names in lower case; repeated headers joined with ", ". */
  headers: Readonly<Record<string, string>>;
  /** The body exactly as received (UTF-8), cut at maxBodyBytes. */
  rawBody: string;
  /** This delivery's position among the deliveries with its `webhook-id` (1 = the first seen; 0 = no id). */
  attempt: number;
  /** Status the receiver answered. */
  answered: number;
}

export interface ReceiverOptions {
  /** @default "127.0.0.1" */
  host?: string;
  /** @default 0 (ephemeral) */
  port?: number;
  /** URL to register instead of the local one (a tunnel or relay to host:port). */
  publicUrl?: string;
  /** Deliveries kept. @default 10000 */
  maxDeliveries?: number;
  /** Answer 500 to the first N attempts of each webhook-id. @default 0 */
  failAttempts?: number;
  /** Longest body kept, in bytes. @default 1 MiB */
  maxBodyBytes?: number;
}

type Listener = (delivery: ReceivedDelivery) => void;

export class WebhookReceiver {
  /** Answer 500 to the first N attempts of each webhook-id (0: answer every delivery with 204). */
  failAttempts: number;
  #dropped = 0;
  #seq = 0;
  readonly #deliveries: ReceivedDelivery[] = [];
  readonly #attempts = new Map<string, number>();
  readonly #listeners = new Set<Listener>();
  readonly #maxDeliveries: number;
  readonly #maxBodyBytes: number;
  #closed = false;

  private constructor(
    private readonly server: Server,
    /** URL of this receiver on this machine, e.g. http://127.0.0.1:40211/webhooks/3f9a… */
    readonly localUrl: string,
    /** What to register at the target: publicUrl when configured, else localUrl. */
    readonly url: string,
    options: ReceiverOptions,
  ) {
    this.failAttempts = options.failAttempts ?? 0;
    this.#maxDeliveries = Math.max(1, options.maxDeliveries ?? 10_000);
    this.#maxBodyBytes = options.maxBodyBytes ?? 1024 * 1024;
  }

  static async start(options: ReceiverOptions = {}): Promise<WebhookReceiver> {
    const host = options.host ?? '127.0.0.1';
    let receiver: WebhookReceiver | undefined;
    const server = createServer((req, res) => {
      const receivedAt = Date.now();
      void receiver!.#receive(req, receivedAt).then(
        (status) => {
          res.writeHead(status, { 'content-length': '0' });
          res.end();
        },
        () => {
          res.writeHead(400, { 'content-length': '0' });
          res.end();
        },
      );
    });
    server.keepAliveTimeout = 1000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    const { port } = server.address() as AddressInfo;
    const connectHost = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '[::1]' : host.includes(':') ? `[${host}]` : host;
    const localUrl = `http://${connectHost}:${port}/webhooks/${randomBytes(6).toString('hex')}`;
    receiver = new WebhookReceiver(server, localUrl, options.publicUrl ?? localUrl, options);
    return receiver;
  }

  /** Deliveries kept so far, in arrival order. */
  get deliveries(): readonly ReceivedDelivery[] {
    return this.#deliveries;
  }

  /** Deliveries forgotten because more than maxDeliveries arrived. */
  get dropped(): number {
    return this.#dropped;
  }

  /** Called for every delivery as it is recorded; returns the unsubscribe function. */
  onDelivery(listener: Listener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * The first delivery (already kept, or arriving within `timeoutMs`) that matches, or undefined when none did
   * in time.
   */
  waitFor(match: (delivery: ReceivedDelivery) => boolean, timeoutMs: number): Promise<ReceivedDelivery | undefined> {
    const found = this.#deliveries.find(match);
    if (found || timeoutMs <= 0 || this.#closed) return Promise.resolve(found);
    return new Promise((resolve) => {
      const timer = setTimeout(() => done(undefined), timeoutMs);
      timer.unref();
      const off = this.onDelivery((delivery) => {
        if (match(delivery)) done(delivery);
      });
      function done(value: ReceivedDelivery | undefined): void {
        clearTimeout(timer);
        off();
        resolve(value);
      }
    });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#listeners.clear();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  async #receive(req: IncomingMessage, receivedAt: number): Promise<number> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req) {
      const buf = chunk as Buffer;
      if (size < this.#maxBodyBytes) chunks.push(buf.subarray(0, this.#maxBodyBytes - size));
      size += buf.length;
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    const id = headers['webhook-id'];
    let attempt = 0;
    if (id !== undefined) {
      attempt = (this.#attempts.get(id) ?? 0) + 1;
      this.#attempts.delete(id);
      this.#attempts.set(id, attempt);
      if (this.#attempts.size > this.#maxDeliveries) this.#attempts.delete(this.#attempts.keys().next().value!);
    }
    const answered = attempt > 0 && attempt <= this.failAttempts ? 500 : 204;
    const delivery: ReceivedDelivery = {
      seq: ++this.#seq,
      receivedAt,
      method: req.method ?? 'POST',
      path: req.url ?? '/',
      headers,
      rawBody: Buffer.concat(chunks).toString('utf8'),
      attempt,
      answered,
    };
    this.#deliveries.push(delivery);
    if (this.#deliveries.length > this.#maxDeliveries) {
      this.#deliveries.shift();
      this.#dropped++;
    }
    for (const listener of this.#listeners) listener(delivery);
    return answered;
  }
}
