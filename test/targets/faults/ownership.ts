/**
 * Faulty targets for the ownership checks: a multi-account target that lets account B act as account A in exactly
 * one place. The proxy knows both accounts' keys (the reference target's own) and, for the one operation the fault
 * names, forwards B's request under A's key — the way a target that forgot the owner filter behaves.
 */
import type { FaultCase } from '../fault-case.ts';
import type { Fault, FaultTools, ProxyRequest } from '../faulty-proxy.ts';

const MESSAGES_PATH = '/v1/whatsapp/messages';

function urlOf(req: ProxyRequest): URL {
  return new URL(req.path, 'http://proxy.invalid');
}

function isAccountB(req: ProxyRequest, tools: FaultTools): boolean {
  return req.headers.authorization === `Bearer ${tools.reference.credentials.otherAccount.apiKey}`;
}

/** B's requests that `matches` are served as if A had sent them. */
function actsAsA(matches: (req: ProxyRequest, url: URL) => boolean): Fault {
  return {
    onRequest(req, tools) {
      if (!isAccountB(req, tools) || !matches(req, urlOf(req))) return req;
      return { ...req, headers: { ...req.headers, authorization: `Bearer ${tools.reference.credentials.apiKeys.full}` } };
    },
  };
}

/**
 * Not a fault: a target that refuses another account's resource with 403 instead of the reference's 404 (the
 * profile's choice; `api.ownership.refusal: forbidden` describes it). B's refused reads and deletes become 403.
 */
export const REFUSES_WITH_403: Fault = {
  onResponse(req, res, tools) {
    if (!isAccountB(req, tools) || res.status !== 404) return res;
    return { ...res, status: 403, body: JSON.stringify({ type: 'about:blank', title: 'Forbidden', status: 403, code: 'forbidden' }) };
  },
};

const isList = (req: ProxyRequest, url: URL) => req.method === 'GET' && url.pathname === MESSAGES_PATH;
const FILTERS = ['from', 'since', 'until'];

function ownershipCase(name: string, fault: Fault, failing: string): FaultCase {
  return { name, fault, suites: ['ownership'], failing: [failing], verdict: 'not-certified' };
}

export const OWNERSHIP_FAULTS: FaultCase[] = [
  ownershipCase(
    "another account reads a campaign by id",
    actsAsA((req, url) => req.method === 'GET' && url.pathname.startsWith('/v1/email/campaigns/')),
    'ownership.campaign.read-refused',
  ),
  ownershipCase(
    "another account's plain message list shows the first account's messages",
    actsAsA((req, url) => isList(req, url) && ![...FILTERS, 'cursor'].some((p) => url.searchParams.has(p))),
    'ownership.messages.list-isolated',
  ),
  ownershipCase(
    "another account's filtered message list (from, since/until) shows the first account's messages",
    actsAsA((req, url) => isList(req, url) && FILTERS.some((p) => url.searchParams.has(p)) && !url.searchParams.has('cursor')),
    'ownership.messages.filtered-isolated',
  ),
  ownershipCase(
    "a cursor issued to one account pages through its messages for another",
    actsAsA((req, url) => isList(req, url) && url.searchParams.has('cursor')),
    'ownership.messages.cursor-isolated',
  ),
  ownershipCase(
    "another account's webhook list shows the first account's webhook",
    actsAsA((req, url) => req.method === 'GET' && url.pathname === '/v1/webhooks'),
    'ownership.webhooks.list-isolated',
  ),
  ownershipCase(
    "another account deletes a webhook",
    actsAsA((req, url) => req.method === 'DELETE' && url.pathname.startsWith('/v1/webhooks/')),
    'ownership.webhooks.delete-refused',
  ),
  ownershipCase(
    "another account replaying an Idempotency-Key gets the first account's answer",
    actsAsA((req, url) => req.method === 'POST' && url.pathname === MESSAGES_PATH && req.headers['idempotency-key'] !== undefined),
    'ownership.idempotency.replay-isolated',
  ),
];
