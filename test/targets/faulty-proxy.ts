/**
 * Purpose-built faulty targets: a real HTTP server on 127.0.0.1 port 0 that forwards to a real reference target
 * and breaks one rule on the way — rewriting a request, a response, or answering by itself. Each fault is a few
 * lines; the rest of the API stays correct, so a test can assert that exactly the check for that rule fails.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { request } from 'undici';
import type { CredentialsConfig } from '../../src/config/types.ts';
import { credentialsFromReference } from '../../src/job/open-target.ts';
import { startReferenceTarget } from '../../src/target/index.ts';
import type { ReferenceTargetOptions, StartedReferenceTarget } from '../../src/target/types.ts';

export interface ProxyRequest {
  method: string;
  /** Path with query string, e.g. `/v1/whatsapp/messages?limit=2`. */
  path: string;
  headers: Record<string, string>;
  body: string;
}

export interface ProxyResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface FaultTools {
  /** Sends a request to the reference target behind the proxy. */
  forward(req: ProxyRequest): Promise<ProxyResponse>;
  reference: StartedReferenceTarget;
  /** Per-target scratch space for stateful faults (e.g. remembering issued codes). */
  state: Map<string, unknown>;
  /** The proxy's own base URL (set once it listens): faults that relay the target's webhook deliveries use it. */
  baseUrl: string;
}

export interface Fault {
  /** Options of the reference target behind the proxy (limits, token lifetimes …). */
  reference?: ReferenceTargetOptions;
  /** Rewrite the request, or answer it without forwarding by returning a response. */
  onRequest?(req: ProxyRequest, tools: FaultTools): ProxyRequest | ProxyResponse | Promise<ProxyRequest | ProxyResponse>;
  /** Rewrite the reference target's response. */
  onResponse?(req: ProxyRequest, res: ProxyResponse, tools: FaultTools): ProxyResponse | Promise<ProxyResponse>;
}

export interface FaultyTarget {
  baseUrl: string;
  /** The harness credentials for this target (the reference target's own). */
  credentials: CredentialsConfig;
  reference: StartedReferenceTarget;
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'host', 'date']);

export async function startFaultyTarget(fault: Fault): Promise<FaultyTarget> {
  // A JWT key shared with the harness (as `harness run` does for its embedded target): the minted-token checks run.
  const jwtSigningKey = randomBytes(32).toString('base64url');
  const reference = await startReferenceTarget({ jwtSigningKey, ...fault.reference, host: '127.0.0.1', port: 0 });
  const tools: FaultTools = {
    reference,
    state: new Map(),
    baseUrl: '',
    async forward(req) {
      const res = await request(`${reference.baseUrl}${req.path}`, {
        method: req.method as 'GET',
        headers: req.headers,
        body: req.method === 'GET' || req.method === 'HEAD' ? undefined : req.body,
      });
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(res.headers)) {
        if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = Array.isArray(value) ? value.join(', ') : value;
      }
      return { status: res.statusCode, headers, body: await res.body.text() };
    },
  };

  const server: Server = createServer((incoming, outgoing) => {
    void handle(incoming).then(
      (res) => {
        outgoing.writeHead(res.status, { ...res.headers, 'content-length': Buffer.byteLength(res.body) });
        outgoing.end(res.body);
      },
      (err: Error) => {
        outgoing.writeHead(502, { 'content-type': 'text/plain' });
        outgoing.end(`faulty proxy failed: ${err.message}`);
      },
    );
  });

  async function handle(incoming: IncomingMessage): Promise<ProxyResponse> {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(incoming.headers)) {
      if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    let req: ProxyRequest = { method: incoming.method ?? 'GET', path: incoming.url ?? '/', headers, body: Buffer.concat(chunks).toString('utf8') };
    if (fault.onRequest) {
      const rewritten = await fault.onRequest(req, tools);
      if ('status' in rewritten) return rewritten;
      req = rewritten;
    }
    const res = await tools.forward(req);
    return fault.onResponse ? fault.onResponse(req, res, tools) : res;
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  tools.baseUrl = `http://127.0.0.1:${port}`;
  return {
    baseUrl: tools.baseUrl,
    credentials: { ...credentialsFromReference(reference.credentials), jwtSigning: { alg: 'HS256', key: jwtSigningKey } },
    reference,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await reference.close();
    },
  };
}

/** JSON body helpers for faults. */
export function jsonBody<T = any>(res: { body: string }): T {
  return JSON.parse(res.body) as T;
}

export function withJson(res: ProxyResponse, body: unknown): ProxyResponse {
  return { ...res, body: JSON.stringify(body) };
}
