/**
 * Faulty targets for the data checks (pagination, schemas, email, idempotency, standing): each breaks one rule
 * in front of a correct reference target and names exactly the checks that must catch it.
 */
import type { FaultCase } from '../fault-case.ts';
import { jsonBody, withJson, type ProxyRequest, type ProxyResponse } from '../faulty-proxy.ts';

const MESSAGES_PATH = '/v1/whatsapp/messages';
const CAMPAIGNS_PATH = '/v1/email/campaigns';

function urlOf(req: ProxyRequest): URL {
  return new URL(req.path, 'http://proxy.invalid');
}

/** A 200 answer of the message list. */
function isListPage(req: ProxyRequest, res: ProxyResponse): boolean {
  return req.method === 'GET' && urlOf(req).pathname === MESSAGES_PATH && res.status === 200;
}

interface ListBody {
  data: Array<Record<string, unknown>>;
  pagination: { next: string | null; limit: number };
}

/** Marker cursor the "next not null" fault hands out on the last page, and answers itself. */
const END_MARKER = 'end-of-list-marker';

/** The query string of a list request, rewritten: the given parameters set (or removed when undefined). */
function withQuery(req: ProxyRequest, changes: Record<string, string | undefined>): ProxyRequest {
  const url = urlOf(req);
  for (const [name, value] of Object.entries(changes)) {
    if (value === undefined) url.searchParams.delete(name);
    else url.searchParams.set(name, value);
  }
  return { ...req, path: `${url.pathname}${url.search}` };
}

/** The page size a list request asked for (the reference's default when none). */
function askedLimit(req: ProxyRequest): number {
  return Number(urlOf(req).searchParams.get('limit') ?? 20);
}

/**
 * A paging fault at the seam between two pages: `shift` asks the reference for one item more (skip) or one
 * fewer (repeat) than the client asked, on every page reached through a cursor, and `edit` puts the page
 * together again at the size asked, with pagination.limit as asked — so only the item sequence is wrong.
 */
function seamFault(shift: 1 | -1, edit: (data: ListBody['data'], previousLast: Record<string, unknown>) => ListBody['data']): FaultCase['fault'] {
  return {
    onRequest(req, tools) {
      const url = urlOf(req);
      const cursor = url.searchParams.get('cursor');
      if (req.method !== 'GET' || url.pathname !== MESSAGES_PATH || cursor === null || !tools.state.has(`last:${cursor}`)) return req;
      const size = askedLimit(req) + shift;
      return size < 1 || size > 100 ? req : withQuery(req, { limit: String(size), 'x-asked': String(askedLimit(req)) });
    },
    onResponse(req, res, tools) {
      if (!isListPage(req, res)) return res;
      const url = urlOf(req);
      const body = jsonBody<ListBody>(res);
      const asked = url.searchParams.get('x-asked');
      let data = body.data;
      let limit = body.pagination.limit;
      if (asked !== null) {
        data = edit(data, tools.state.get(`last:${url.searchParams.get('cursor')}`) as Record<string, unknown>);
        limit = Number(asked);
      }
      if (body.pagination.next && data.length > 0) tools.state.set(`last:${body.pagination.next}`, data[data.length - 1]);
      return withJson(res, { data, pagination: { ...body.pagination, limit } });
    },
  };
}

/** A list that never reads the cursor parameter: every page is the first (as an OpenAPI mock answers). */
function ignoreCursor(): FaultCase['fault'] {
  return {
    onRequest(req) {
      const url = urlOf(req);
      if (req.method !== 'GET' || url.pathname !== MESSAGES_PATH || !url.searchParams.has('cursor')) return req;
      return withQuery(req, { cursor: undefined });
    },
  };
}

/** What a cursor that never advances fails, whether or not the config names the parameter. */
const CURSOR_IGNORED_FAILING = [
  'pagination.walk.next-leads-to-next-page',
  'pagination.walk.no-duplicates',
  'pagination.walk.union-equals-data',
  'pagination.walk.last-page-next-null',
  'pagination.stability.insert-during-walk',
  'pagination.cursor.garbled-rejected',
];

export const DATA_FAULTS: FaultCase[] = [
  {
    name: 'a next cursor that never advances (the first page again, forever)',
    suites: ['pagination'],
    fault: {
      // Only cursors it issued: a garbled one still gets the reference's 400.
      onRequest(req, tools) {
        const url = urlOf(req);
        const cursor = url.searchParams.get('cursor');
        if (req.method !== 'GET' || url.pathname !== MESSAGES_PATH || cursor === null || !tools.state.has(`issued:${cursor}`)) return req;
        return withQuery(req, { cursor: undefined });
      },
      onResponse(req, res, tools) {
        const next = isListPage(req, res) ? jsonBody<ListBody>(res).pagination.next : null;
        if (next) tools.state.set(`issued:${next}`, true);
        return res;
      },
    },
    // The PROFILE walk checks see the same fault from their side: the same page again (next-leads-to-next-page),
    // repeats (no-duplicates), seeds never reached (union-equals-data), no last page (last-page-next-null), and the
    // stability walk cannot finish (insert-during-walk).
    failing: [
      'pagination.walk.each-item-once',
      'pagination.walk.next-leads-to-next-page',
      'pagination.walk.no-duplicates',
      'pagination.walk.union-equals-data',
      'pagination.walk.last-page-next-null',
      'pagination.stability.insert-during-walk',
    ],
    verdict: 'not-certified',
  },
  {
    name: 'a next page starts again with the previous page\'s last item',
    suites: ['pagination'],
    fault: seamFault(-1, (data, previousLast) => [previousLast, ...data]),
    // PROFILE sees it too: an item listed twice, also in the stability walk.
    failing: ['pagination.walk.each-item-once', 'pagination.walk.no-duplicates', 'pagination.stability.insert-during-walk'],
    verdict: 'not-certified',
  },
  {
    name: 'a next page skips the item after the previous page\'s last',
    suites: ['pagination'],
    fault: seamFault(1, (data) => data.slice(1)),
    // PROFILE sees it too: the walks miss seeds, also the stability walk.
    failing: ['pagination.walk.each-item-once', 'pagination.walk.union-equals-data', 'pagination.stability.insert-during-walk'],
    verdict: 'not-certified',
  },
  {
    name: 'pagination.limit always says 50, whatever page size was used',
    suites: ['pagination'],
    fault: {
      onResponse(req, res) {
        if (!isListPage(req, res)) return res;
        const body = jsonBody<ListBody>(res);
        return withJson(res, { ...body, pagination: { ...body.pagination, limit: 50 } });
      },
    },
    // §2.4's "page size used" (MUST) and PROFILE's "the limit sent, or the default".
    failing: ['pagination.walk.limit-is-size-used', 'pagination.walk.limit-echoes-size'],
    verdict: 'not-certified',
  },
  {
    name: 'every send is answered with one static body (the same id every time)',
    suites: ['schemas', 'idempotency'],
    fault: {
      onResponse(req, res, tools) {
        if (req.method !== 'POST' || urlOf(req).pathname !== MESSAGES_PATH || res.status !== 201) return res;
        const first = (tools.state.get('static') as string | undefined) ?? res.body;
        tools.state.set('static', first);
        return { ...res, body: first };
      },
    },
    // §2.2's identifier (MUST) and PROFILE's "different keys, different messages"; the replay check passes, but
    // vacuously (a control send got the same answer), which does not show as a failure.
    failing: ['schemas.send-response.distinct-ids', 'idempotency.replay.different-keys-different-messages'],
    verdict: 'not-certified',
    vacuous: ['idempotency.replay.same-response'],
  },
  {
    name: 'send timestamps are local time labelled as UTC (three hours ahead)',
    suites: ['schemas'],
    fault: {
      onResponse(req, res) {
        if (req.method !== 'POST' || urlOf(req).pathname !== MESSAGES_PATH || res.status !== 201) return res;
        const body = jsonBody<Record<string, unknown>>(res);
        return withJson(res, { ...body, timestamp: new Date(Date.parse(String(body.timestamp)) + 3 * 3_600_000).toISOString() });
      },
    },
    failing: ['schemas.send-response.timestamp-near-clock'],
    verdict: 'selection-passed',
  },
  {
    name: 'every JSON body is served as text/plain',
    suites: ['smoke', 'standing'],
    fault: {
      onResponse(_req, res) {
        const type = res.headers['content-type'] ?? '';
        return /json/i.test(type) ? { ...res, headers: { ...res.headers, 'content-type': 'text/plain; charset=utf-8' } } : res;
      },
    },
    // SERVICE-SPEC §1 (responses are JSON: MUST for the §4 operations' successes) and RFC 8259's media type (SHOULD,
    // every JSON answer); the schema check no longer sees the error bodies as JSON and judges only the successes.
    failing: ['standing.json-responses', 'standing.json-media-type'],
    verdict: 'not-certified',
  },
  {
    name: 'a campaign is answered (and read back) under another name than the one sent',
    suites: ['email'],
    fault: {
      onResponse(req, res) {
        if (!urlOf(req).pathname.startsWith(CAMPAIGNS_PATH) || res.status >= 300) return res;
        return withJson(res, { ...jsonBody<Record<string, unknown>>(res), name: 'Untitled campaign' });
      },
    },
    failing: ['email.create.echoes-request'],
    verdict: 'selection-passed',
  },
  {
    name: 'deleting a webhook that was never registered answers 204',
    suites: ['webhooks'],
    config: { webhooks: { waitSeconds: 3 } },
    fault: {
      onResponse: (req, res) => (req.method === 'DELETE' && urlOf(req).pathname.startsWith('/v1/webhooks/') && res.status === 404 ? { status: 204, headers: {}, body: '' } : res),
    },
    failing: ['webhooks.management.delete-unknown-404'],
    verdict: 'selection-passed',
  },
  {
    name: 'the send operation accepts any `to` (no phone number validation)',
    suites: ['inputs'],
    fault: {
      onRequest(req) {
        if (req.method !== 'POST' || urlOf(req).pathname !== MESSAGES_PATH) return req;
        let body: unknown;
        try {
          body = JSON.parse(req.body);
        } catch {
          return req;
        }
        if (!body || typeof body !== 'object' || Array.isArray(body) || !('to' in body)) return req;
        return { ...req, body: JSON.stringify({ ...body, to: '15551234567' }) };
      },
    },
    failing: ['inputs.send-message.invalid-rejected.values'],
    verdict: 'selection-passed',
  },
  {
    name: 'the last page of a default-limit walk repeats an item of the first page',
    suites: ['pagination'],
    fault: {
      onResponse(req, res, tools) {
        const url = urlOf(req);
        // Only walks at the default limit, so every page keeps within its size and the set stays the same.
        if (!isListPage(req, res) || url.searchParams.has('limit')) return res;
        const body = jsonBody<ListBody>(res);
        const key = `first:${url.searchParams.get('from')}:${url.searchParams.get('since')}:${url.searchParams.get('until')}`;
        if (!url.searchParams.has('cursor')) {
          if (body.data[0]) tools.state.set(key, body.data[0]);
          return res;
        }
        const first = tools.state.get(key);
        if (body.pagination.next !== null || !first) return res;
        return withJson(res, { ...body, data: [...body.data, first] });
      },
    },
    // Every item exactly once over a static list is SERVICE-SPEC §2.4's (MUST); no-duplicates is PROFILE's wording of it.
    failing: ['pagination.walk.each-item-once', 'pagination.walk.no-duplicates'],
    verdict: 'not-certified',
  },
  {
    name: 'the last page carries a next cursor that leads to an empty page',
    suites: ['pagination'],
    fault: {
      onRequest(req) {
        const url = urlOf(req);
        if (req.method !== 'GET' || url.pathname !== MESSAGES_PATH || url.searchParams.get('cursor') !== END_MARKER) return req;
        const limit = Number(url.searchParams.get('limit') ?? 20);
        return { status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify({ data: [], pagination: { next: null, limit } }) };
      },
      onResponse(req, res) {
        if (!isListPage(req, res)) return res;
        const body = jsonBody<ListBody>(res);
        if (body.pagination.next !== null || body.data.length === 0) return res;
        return withJson(res, { ...body, pagination: { ...body.pagination, next: END_MARKER } });
      },
    },
    failing: ['pagination.walk.last-page-next-null'],
    verdict: 'selection-passed',
  },
  {
    // SERVICE-SPEC §2.4 types next as a string and does not say how the end is marked: only PROFILE's null is broken.
    name: 'next is never null: after the last item, an empty page that hands its own cursor back',
    suites: ['pagination'],
    fault: {
      onRequest(req) {
        const url = urlOf(req);
        if (req.method !== 'GET' || url.pathname !== MESSAGES_PATH || url.searchParams.get('cursor') !== END_MARKER) return req;
        return { status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify({ data: [], pagination: { next: END_MARKER, limit: askedLimit(req) } }) };
      },
      onResponse(req, res) {
        if (!isListPage(req, res)) return res;
        const body = jsonBody<ListBody>(res);
        return body.pagination.next !== null ? res : withJson(res, { ...body, pagination: { ...body.pagination, next: END_MARKER } });
      },
    },
    failing: ['pagination.walk.last-page-next-null'],
    verdict: 'selection-passed',
  },
  {
    name: 'next is never null: after the last item, empty pages with a fresh cursor each time',
    suites: ['pagination'],
    fault: {
      onRequest(req) {
        const url = urlOf(req);
        const cursor = url.searchParams.get('cursor') ?? '';
        if (req.method !== 'GET' || url.pathname !== MESSAGES_PATH || !cursor.startsWith(`${END_MARKER}-`)) return req;
        const next = `${END_MARKER}-${Number(cursor.slice(END_MARKER.length + 1)) + 1}`;
        return { status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify({ data: [], pagination: { next, limit: askedLimit(req) } }) };
      },
      onResponse(req, res) {
        if (!isListPage(req, res)) return res;
        const body = jsonBody<ListBody>(res);
        return body.pagination.next !== null ? res : withJson(res, { ...body, pagination: { ...body.pagination, next: `${END_MARKER}-1` } });
      },
    },
    failing: ['pagination.walk.last-page-next-null'],
    verdict: 'selection-passed',
  },
  {
    // Like an OpenAPI mock: the cursor parameter is not read at all, so a garbled cursor brings back the first page
    // too. The config names the parameter, so the walk rule decides: a cursor that never advances is a finding.
    name: 'the cursor parameter the config names is ignored (every page is the first)',
    suites: ['pagination'],
    config: { api: { query: { cursor: 'cursor' } } },
    fault: ignoreCursor(),
    failing: ['pagination.walk.each-item-once', ...CURSOR_IGNORED_FAILING],
    verdict: 'not-certified',
  },
  {
    // An OpenAPI mock: one example page for every list request, whatever its parameters, and no sandbox to seed
    // with. The config names the cursor, so the walk rule judges "advances" on the list as it is, and fails.
    name: 'an OpenAPI mock: the same example page for every list request, no sandbox, the config names the cursor',
    suites: ['pagination'],
    config: { api: { query: { cursor: 'cursor' } } },
    fault: {
      onRequest(req) {
        const url = urlOf(req);
        if (req.method === 'POST' && url.pathname === '/v1/sandbox/inbound') {
          return { status: 404, headers: { 'content-type': 'application/problem+json' }, body: JSON.stringify({ type: 'about:blank', title: 'Not Found', status: 404, code: 'not_found' }) };
        }
        if (req.method !== 'GET' || url.pathname !== MESSAGES_PATH) return req;
        const example = { id: 'msg_01HZX3', from: '15551234567', text: 'Hello', timestamp: '2026-01-01T00:00:00Z' };
        return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ data: [example], pagination: { next: 'eyJwIjoyfQ', limit: 20 } }) };
      },
    },
    // The other walk checks need seeds and say why they did not run; the mock's other gaps are PROFILE findings.
    failing: [
      'pagination.walk.each-item-once',
      'pagination.seed.sandbox-accepts',
      'pagination.stability.insert-during-walk',
      'pagination.cursor.garbled-rejected',
      'pagination.limit.out-of-range-rejected',
    ],
    verdict: 'not-certified',
  },
  {
    // The same target under PROFILE's default parameter name: the walk rule cannot tell the target's fault from the
    // config's omission (the target may page with another parameter), so the MUST check does not fail; PROFILE does.
    name: 'the cursor parameter is ignored (every page is the first), and the config does not name it',
    suites: ['pagination'],
    fault: ignoreCursor(),
    failing: [...CURSOR_IGNORED_FAILING],
    // each-item-once is skipped, saying why: a MUST check that did not run leaves the run incomplete, not failed.
    verdict: 'incomplete',
  },
  {
    name: 'a cursor the service never issued is answered 500',
    suites: ['pagination', 'standing'],
    fault: {
      onResponse(req, res) {
        if (req.method !== 'GET' || urlOf(req).pathname !== MESSAGES_PATH || res.status !== 400) return res;
        if (jsonBody<{ code?: string }>(res).code !== 'invalid_cursor') return res;
        return { status: 500, headers: { 'content-type': 'application/problem+json' }, body: JSON.stringify({ type: 'about:blank', title: 'Internal Server Error', status: 500, code: 'internal' }) };
      },
    },
    failing: ['pagination.cursor.garbled-not-5xx', 'pagination.cursor.garbled-rejected', 'standing.no-server-errors'],
    verdict: 'selection-passed',
  },
  {
    name: 'the message list ignores since',
    suites: ['pagination'],
    fault: {
      onRequest(req) {
        const url = urlOf(req);
        if (req.method !== 'GET' || url.pathname !== MESSAGES_PATH || !url.searchParams.has('since')) return req;
        url.searchParams.delete('since');
        return { ...req, path: `${url.pathname}${url.search}` };
      },
    },
    failing: ['pagination.filter.since-inclusive'],
    verdict: 'selection-passed',
  },
  {
    name: 'the send response carries a timestamp that is not ISO 8601',
    suites: ['schemas', 'standing'],
    fault: {
      onResponse(req, res) {
        if (req.method !== 'POST' || urlOf(req).pathname !== MESSAGES_PATH || res.status !== 201) return res;
        const body = jsonBody<Record<string, unknown>>(res);
        return withJson(res, { ...body, timestamp: new Date(String(body.timestamp)).toUTCString() });
      },
    },
    failing: ['schemas.send-response.spec-fields', 'schemas.send-response.schema', 'standing.responses-match-schemas'],
    verdict: 'not-certified',
  },
  {
    name: 'listed messages carry their timestamp as epoch milliseconds',
    suites: ['schemas'],
    fault: {
      onResponse(req, res) {
        if (!isListPage(req, res)) return res;
        const body = jsonBody<ListBody>(res);
        return withJson(res, { ...body, data: body.data.map((item) => ({ ...item, timestamp: Date.parse(String(item.timestamp)) })) });
      },
    },
    // The envelope's schema validates its items too (the MUST envelope check looks at the envelope only).
    failing: ['schemas.listed-message.schema', 'schemas.listed-message.spec-fields', 'schemas.message-list.schema'],
    verdict: 'not-certified',
  },
  {
    name: 'duplicate campaign recipients are counted, not removed',
    suites: ['email'],
    fault: {
      onResponse(req, res) {
        if (req.method !== 'POST' || urlOf(req).pathname !== CAMPAIGNS_PATH || res.status !== 201) return res;
        const sent = JSON.parse(req.body) as { recipients: unknown[] };
        return withJson(res, { ...jsonBody<Record<string, unknown>>(res), recipients_count: sent.recipients.length });
      },
    },
    failing: ['email.create.duplicate-recipients-removed'],
    verdict: 'selection-passed',
  },
  {
    name: 'an idempotent replay answers a new message id',
    suites: ['idempotency'],
    fault: {
      onResponse(req, res) {
        if (req.method !== 'POST' || urlOf(req).pathname !== MESSAGES_PATH || res.headers['idempotent-replayed'] !== 'true') return res;
        const body = jsonBody<Record<string, unknown>>(res);
        return withJson(res, { ...body, id: `${String(body.id)}_again` });
      },
    },
    failing: ['idempotency.replay.same-response'],
    verdict: 'selection-passed',
  },
];
