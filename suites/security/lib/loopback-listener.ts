/**
 * A listener of the harness's own on 127.0.0.1 (ephemeral port) that records what it was asked and connects
 * nowhere. On `/hook` it answers a redirect to `/followed` on itself, so a target that follows redirects is seen
 * doing it without any address outside loopback being involved. Bounded: it keeps the first 64 requests and
 * closes every connection on `close()`.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

const MAX_RECORDED = 64;

export interface RecordedRequest {
  method: string;
  path: string;
}

export class LoopbackListener {
  readonly requests: RecordedRequest[] = [];
  readonly #server: Server;
  #port = 0;

  private constructor() {
    this.#server = createServer((req, res) => {
      const path = req.url ?? '/';
      if (this.requests.length < MAX_RECORDED) this.requests.push({ method: req.method ?? 'GET', path });
      req.resume();
      if (path.startsWith('/hook')) {
        res.writeHead(307, { location: `${this.origin}/followed`, 'content-length': 0 });
        res.end();
        return;
      }
      res.writeHead(204);
      res.end();
    });
  }

  static async start(): Promise<LoopbackListener> {
    const listener = new LoopbackListener();
    await new Promise<void>((resolve, reject) => {
      listener.#server.once('error', reject);
      listener.#server.listen(0, '127.0.0.1', resolve);
    });
    listener.#port = (listener.#server.address() as AddressInfo).port;
    return listener;
  }

  get origin(): string {
    return `http://127.0.0.1:${this.#port}`;
  }

  /** Whether a request for `prefix` came. */
  saw(prefix: string): boolean {
    return this.requests.some((r) => r.path.startsWith(prefix));
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise((resolve) => this.#server.close(resolve));
  }
}
