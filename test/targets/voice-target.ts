/**
 * A small target with the voice endpoints that suites/voice.example.yaml describes (POST /v1/voice/calls,
 * GET /v1/voice/calls/{id}, GET /v1/voice/calls/{id}/transcript), on 127.0.0.1 port 0. Correct by default;
 * each `fault` breaks one rule the suite checks, so a test can assert that exactly that check fails.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type VoiceFault =
  /** Answers a create with 200 instead of 201 (PROFILE voice.create-call). */
  | 'create-200'
  /** Creates calls without any credential (MUST voice.create-requires-credential, and the SHOULD challenge). */
  | 'no-auth'
  /** Reading a call answers another call's id (PROFILE voice.call-readable). */
  | 'wrong-id';

export interface VoiceTarget {
  baseUrl: string;
  apiKey: string;
  close(): Promise<void>;
}

interface Call {
  id: string;
  status: 'queued';
  to: string;
  agent: string;
  created_at: string;
}

const PHONE = /^[1-9][0-9]{6,14}$/;

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': status >= 400 ? 'application/problem+json' : 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

function problem(res: ServerResponse, status: number, code: string, title: string, headers: Record<string, string> = {}): void {
  send(res, status, { type: 'about:blank', title, status, code }, headers);
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  let text = '';
  for await (const chunk of req) text += String(chunk);
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export async function startVoiceTarget(fault?: VoiceFault): Promise<VoiceTarget> {
  const apiKey = `voice_${randomUUID().replace(/-/g, '')}`;
  const calls = new Map<string, Call>();
  const server = createServer((req, res) => {
    void (async () => {
      const path = (req.url ?? '/').split('?')[0]!;
      const authorized = req.headers.authorization === `Bearer ${apiKey}` || fault === 'no-auth';
      if (!path.startsWith('/v1/voice/calls')) return problem(res, 404, 'not_found', 'Not Found');
      if (!authorized) return problem(res, 401, 'unauthorized', 'Unauthorized', { 'www-authenticate': 'Bearer realm="api"' });
      const match = /^\/v1\/voice\/calls(?:\/([^/]+)(\/transcript)?)?$/.exec(path);
      if (!match) return problem(res, 404, 'not_found', 'Not Found');
      const [, id, transcript] = match;
      if (!id && req.method === 'POST') {
        const body = (await readBody(req)) as Partial<Call> | undefined;
        if (!body || typeof body.to !== 'string' || !PHONE.test(body.to) || typeof body.agent !== 'string') return problem(res, 400, 'validation_failed', 'Bad Request');
        const call: Call = { id: `call_${randomUUID()}`, status: 'queued', to: body.to, agent: body.agent, created_at: new Date().toISOString() };
        calls.set(call.id, call);
        return send(res, fault === 'create-200' ? 200 : 201, call, { location: `/v1/voice/calls/${call.id}` });
      }
      const call = id ? calls.get(decodeURIComponent(id)) : undefined;
      if (!call || req.method !== 'GET') return problem(res, 404, 'not_found', 'Not Found');
      if (transcript) return send(res, 200, { call_id: call.id, segments: [] });
      return send(res, 200, fault === 'wrong-id' ? { ...call, id: `call_${randomUUID()}` } : call);
    })().catch(() => problem(res, 500, 'internal', 'Internal Server Error'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    apiKey,
    close: () => new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve()))),
  };
}
