/**
 * A static mock of the API, the way an OpenAPI mock server (Prism-style) answers: every operation answers its one
 * canned example body with its documented success status — the same id and the same timestamp for every send,
 * the same page for every list — after validating what it can: a Bearer credential where the operation has one
 * (any value will do) and, for the send, the request body by SERVICE-SPEC §2.1's two text forms (the long form
 * `{to, type: "text", text: {body}}`, the short form `{to, text: "…"}` with `type` omitted). Other message types
 * (§2.1: "not shown") pass unvalidated. It records what it was asked and connects nowhere.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export const MOCK_MESSAGE = { id: 'msg_mock_0001', status: 'sent', timestamp: '2026-01-01T00:00:00Z' } as const;
const LISTED = { id: 'in_mock_0001', from: '15550001111', text: 'hello from the mock', timestamp: '2026-01-01T00:00:00Z' };
const CAMPAIGN = { id: 'cmp_mock_0001', name: 'Mock', subject: 'Mock', status: 'draft', recipients_count: 1, schedule: null, created_at: '2026-01-01T00:00:00Z' };

export interface MockRequest {
  method: string;
  path: string;
  body: string;
  /** The status it answered. */
  status: number;
}

export interface StartedStaticMock {
  baseUrl: string;
  /** Every request the mock was asked, in order. */
  asked: MockRequest[];
  close(): Promise<void>;
}

interface Route {
  status: number;
  body: unknown;
  /** The operation wants a Bearer credential (the document's security requirement). */
  secured: boolean;
  /** A request-body rule, as the mock's document states it: the reason it fails, or undefined. */
  invalid?: (body: unknown) => string | undefined;
}

const ROUTES: Record<string, Route> = {
  'POST /v1/whatsapp/messages': { status: 201, body: MOCK_MESSAGE, secured: true, invalid: sendBodyProblem },
  'GET /v1/whatsapp/messages': { status: 200, body: { data: [LISTED], pagination: { next: null, limit: 20 } }, secured: true },
  'POST /v1/email/campaigns': { status: 201, body: CAMPAIGN, secured: true },
  'POST /v1/auth/login': { status: 200, body: { token: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJtb2NrIn0.bW9jaw', expires_in: 3600 }, secured: false },
  'GET /v1/account': { status: 200, body: { id: 'acc_mock', email: 'mock@example.com', name: 'Mock', plan: 'free', created_at: '2026-01-01T00:00:00Z' }, secured: true },
};

/** SERVICE-SPEC §2.1 as the mock's document states it; undefined when the body is valid. */
export function sendBodyProblem(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'the body is not an object';
  const message = body as Record<string, unknown>;
  if (typeof message.to !== 'string' || !/^[0-9]+$/.test(message.to)) return '/to must be a string of digits';
  if (typeof message.text === 'string') return 'type' in message ? '/type must be omitted in the short form' : undefined;
  if (message.type === 'text') {
    const text = message.text as Record<string, unknown> | undefined;
    return typeof text === 'object' && text !== null && typeof text.body === 'string' ? undefined : '/text must be {body: string}';
  }
  return typeof message.type === 'string' ? undefined : '/type is missing';
}

export async function startStaticMock(): Promise<StartedStaticMock> {
  const asked: MockRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= 2 * 1024 * 1024) chunks.push(chunk);
    });
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0]!;
      const body = Buffer.concat(chunks).toString('utf8');
      const answer = (status: number, payload: unknown, type = 'application/json') => {
        asked.push({ method: req.method ?? 'GET', path, body, status });
        res.writeHead(status, { 'content-type': type });
        res.end(JSON.stringify(payload));
      };
      const route = ROUTES[`${req.method} ${path}`];
      if (!route) return answer(404, { type: 'about:blank', title: 'Not Found', status: 404 }, 'application/problem+json');
      if (route.secured && !/^Bearer \S+$/i.test(req.headers.authorization ?? '')) {
        return answer(401, { type: 'about:blank', title: 'Unauthorized', status: 401 }, 'application/problem+json');
      }
      if (route.invalid) {
        let parsed: unknown;
        try {
          parsed = JSON.parse(body);
        } catch {
          return answer(422, { type: 'about:blank', title: 'Invalid request', status: 422, detail: 'the body is not JSON' }, 'application/problem+json');
        }
        const problem = route.invalid(parsed);
        if (problem) return answer(422, { type: 'about:blank', title: 'Invalid request', status: 422, detail: problem }, 'application/problem+json');
      }
      answer(route.status, route.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    asked,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
