/**
 * Faulty targets for the errors and ratelimit suites: each breaks one rule of error answers or rate limiting,
 * and names exactly the check(s) that must fail.
 */
import type { FaultCase } from '../fault-case.ts';
import { rewriteJson400 } from '../../helpers/json-error-fault.ts';
import { jsonBody, withJson, type ProxyResponse } from '../faulty-proxy.ts';

const RATE_LIMIT_HEADERS = ['ratelimit', 'ratelimit-policy', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'];

function without(res: ProxyResponse, names: readonly string[]): ProxyResponse {
  const headers = Object.fromEntries(Object.entries(res.headers).filter(([name]) => !names.includes(name.toLowerCase())));
  return { ...res, headers };
}

function isMalformedJson(body: string): boolean {
  if (body.trim() === '') return false;
  try {
    JSON.parse(body);
    return false;
  } catch {
    return true;
  }
}

export const ERROR_FAULTS: FaultCase[] = [
  {
    name: 'HEAD is not served on GET paths (405)',
    fault: {
      onRequest: (req) => (req.method === 'HEAD' ? { status: 405, headers: { allow: 'GET, POST' }, body: '' } : req),
    },
    suites: ['errors'],
    failing: ['errors.head.get-paths'],
    verdict: 'selection-passed',
  },
  {
    name: 'a validation rejection does not say which field was wrong (no errors[])',
    fault: {
      onResponse: rewriteJson400('validation_failed', ({ errors: _dropped, ...rest }) => rest),
    },
    suites: ['errors'],
    failing: ['errors.validation.problem-body'],
    verdict: 'selection-passed',
  },
  {
    name: 'the target never answers 429 (no limit in effect, no rate-limit headers)',
    fault: {
      reference: { rateLimit: { quota: 1_000_000_000, anonymousQuota: 1_000_000_000 } },
      onResponse: (_req, res) => without(res, RATE_LIMIT_HEADERS),
    },
    suites: ['ratelimit'],
    // Its anonymous limit is lifted too, so the per-address check fails as well.
    failing: ['ratelimit.anonymous.limited-per-address', 'ratelimit.burst.exceeding-quota-gets-429', 'ratelimit.headers.present-and-consistent'],
    verdict: 'not-certified',
  },
  {
    name: 'a 429 comes without Retry-After',
    fault: {
      onResponse: (_req, res) => (res.status === 429 ? without(res, ['retry-after']) : res),
    },
    suites: ['ratelimit'],
    failing: ['ratelimit.retry-after.present'],
    verdict: 'selection-passed',
  },
  {
    name: 'Retry-After lies: 1 s when the quota frees up only after 5 s',
    fault: {
      // A sliding window makes the real Retry-After right after a burst the whole window (5 s). The lie shows only
      // if the check's own burst takes less than the window less the claim (4 s), which a loaded machine still
      // gives; the window stays within conformance.maxWaitSeconds, which the check waits to start from a full quota.
      reference: { rateLimit: { algorithm: 'sliding-window', quota: 20, windowSeconds: 5 } },
      onResponse: (_req, res) => (res.status === 429 ? { ...res, headers: { ...res.headers, 'retry-after': '1' } } : res),
    },
    suites: ['ratelimit'],
    failing: ['ratelimit.retry-after.honest'],
    verdict: 'selection-passed',
  },
  {
    name: 'two API keys share one rate-limit bucket (secondKey is counted as apiKey)',
    fault: {
      onRequest: (req, { reference }) => {
        const { second, full } = reference.credentials.apiKeys;
        return req.headers.authorization === `Bearer ${second}` ? { ...req, headers: { ...req.headers, authorization: `Bearer ${full}` } } : req;
      },
    },
    suites: ['ratelimit'],
    failing: ['ratelimit.isolation.second-key-unaffected'],
    verdict: 'selection-passed',
  },
  {
    name: 'a malformed JSON body is answered 500',
    fault: {
      onResponse: (req, res) => {
        if (!(req.headers['content-type'] ?? '').includes('json') || !isMalformedJson(req.body) || res.status !== 400) return res;
        return withJson({ ...res, status: 500 }, { ...jsonBody<Record<string, unknown>>(res), status: 500, title: 'Internal Server Error', code: 'internal_error' });
      },
    },
    suites: ['errors', 'standing'],
    failing: ['errors.malformed-json.client-error', 'errors.malformed-json.status', 'standing.no-server-errors'],
    verdict: 'selection-passed',
  },
  {
    name: 'a 405 comes without Allow',
    fault: {
      onResponse: (_req, res) => (res.status === 405 ? without(res, ['allow']) : res),
    },
    suites: ['errors'],
    failing: ['errors.method-not-allowed.allow-header'],
    verdict: 'selection-passed',
  },
  {
    name: 'error answers say Content-Type: text/plain',
    fault: {
      onResponse: (_req, res) => (res.status >= 400 ? { ...res, headers: { ...res.headers, 'content-type': 'text/plain; charset=utf-8' } } : res),
    },
    suites: ['errors'],
    failing: ['errors.problem-json.content-type'],
    verdict: 'selection-passed',
  },
];
