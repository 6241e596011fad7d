/**
 * Faulty targets for the ratelimit checks built on the rate-limit probe: headers that misdescribe the policy,
 * a remaining quota that drops too fast, an unlimited anonymous client. (A Retry-After that is too short, keys
 * sharing one bucket and a 429 without Retry-After are cases in errors.ts.)
 */
import type { FaultCase } from '../fault-case.ts';
import type { ProxyResponse } from '../faulty-proxy.ts';

const RATE_LIMIT_HEADERS = ['ratelimit', 'ratelimit-policy', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'];

/** Rewrites one integer parameter (`q=`, `w=`, `r=`) of a rate-limit header. */
function rewriteParam(res: ProxyResponse, header: string, param: string, change: (value: number, res: ProxyResponse) => number): ProxyResponse {
  const value = res.headers[header];
  if (value === undefined) return res;
  const rewritten = value.replace(new RegExp(`;${param}=(\\d+)`), (_, n: string) => `;${param}=${change(Number(n), res)}`);
  return { ...res, headers: { ...res.headers, [header]: rewritten } };
}

function quotaOf(res: ProxyResponse): number {
  return Number(/;q=(\d+)/.exec(res.headers['ratelimit-policy'] ?? '')?.[1] ?? 0);
}

export const RATELIMIT_FAULTS: FaultCase[] = [
  {
    name: 'RateLimit-Policy overstates the quota (q=40 while 20 per second are enforced)',
    fault: {
      // A quota the probe can exhaust and bound on a busy 2-core machine too: at 100 per second a probe slowed below
      // that pace never saw the limit, and could not decide.
      reference: { rateLimit: { quota: 20, windowSeconds: 1 } },
      onResponse: (_req, res) => rewriteParam(res, 'ratelimit-policy', 'q', (q) => q * 2),
    },
    suites: ['ratelimit'],
    failing: ['ratelimit.policy.claimed-quota-matches'],
    verdict: 'selection-passed',
  },
  {
    name: 'RateLimit-Policy overstates the window (w=3 while the window is 1 s)',
    fault: {
      // 20 per second, like the quota case: a loaded probe outpaces it, so the window is measured, not guessed.
      reference: { rateLimit: { quota: 20, windowSeconds: 1 } },
      onResponse: (_req, res) => rewriteParam(res, 'ratelimit-policy', 'w', (w) => w * 3),
    },
    suites: ['ratelimit'],
    failing: ['ratelimit.policy.claimed-window-matches'],
    verdict: 'selection-passed',
  },
  {
    name: 'the remaining quota drops by two per request',
    fault: {
      // r' = 2r − q: q−2, q−4, … — still within the quota, still going down, but two units per request.
      onResponse: (_req, res) => rewriteParam(res, 'ratelimit', 'r', (r, response) => Math.max(0, 2 * r - quotaOf(response))),
    },
    suites: ['ratelimit'],
    failing: ['ratelimit.headers.remaining-decrements-by-one'],
    verdict: 'selection-passed',
  },
  {
    name: 'unauthenticated requests are never rate limited',
    fault: {
      reference: { rateLimit: { anonymousQuota: 1_000_000_000 } },
      // Without headers the burst cannot know the (huge) quota, so it sends its full bound and sees no 429.
      onResponse: (req, res) => (req.headers.authorization === undefined
        ? { ...res, headers: Object.fromEntries(Object.entries(res.headers).filter(([name]) => !RATE_LIMIT_HEADERS.includes(name))) }
        : res),
    },
    suites: ['ratelimit'],
    failing: ['ratelimit.anonymous.limited-per-address'],
    verdict: 'selection-passed',
  },
  {
    name: 'never throttles, while RateLimit-Policy claims 60 per 60 s',
    fault: {
      reference: { rateLimit: { quota: 1_000_000_000, anonymousQuota: 1_000_000_000 } },
      // The claim a target makes without enforcing it: 60 per 60 s, with a remaining count that never drops.
      onResponse: (_req, res) => (res.headers['ratelimit-policy'] === undefined ? res : {
        ...res,
        headers: { ...res.headers, 'ratelimit-policy': '"default";q=60;w=60', ratelimit: '"default";r=59;t=60' },
      }),
    },
    suites: ['ratelimit'],
    failing: [
      'ratelimit.anonymous.limited-per-address',
      'ratelimit.burst.exceeding-quota-gets-429',
      'ratelimit.headers.remaining-decreases',
      'ratelimit.headers.remaining-decrements-by-one',
    ],
    // claimed-quota-matches: "could not decide" — no 429 measured quota or window; the admissions contradict the
    // claimed pair, but a larger quota and a shorter window explain them alike (README "Time-dependent judgements").
    verdict: 'not-certified',
  },
  {
    name: 'never throttles and sends no rate-limit headers, while the config states 60 per 60 s (api.rateLimitPolicy)',
    fault: {
      // Its per-address limit is enforced but, like everything here, unannounced: 10 per second, which a burst at
      // any pace this harness reaches passes (at the default 200 per second, a burst slowed below that by a loaded
      // machine could not tell it from no limit, and nothing announced makes that a failure).
      reference: { rateLimit: { quota: 1_000_000_000, anonymousQuota: 10 } },
      onResponse: (_req, res) => ({ ...res, headers: Object.fromEntries(Object.entries(res.headers).filter(([name]) => !RATE_LIMIT_HEADERS.includes(name))) }),
    },
    config: { api: { rateLimitHeaders: 'none', rateLimitPolicy: { quota: 60, windowSeconds: 60 } }, conformance: { profile: { rateLimitHeaders: false } } },
    suites: ['ratelimit'],
    failing: ['ratelimit.burst.exceeding-quota-gets-429'],
    verdict: 'not-certified',
  },
  {
    // Not a failure of any schema rule: the polite client stops trusting the Retry-After once a retry after it is
    // throttled again, and waits for the RateLimit reset instead; ratelimit.retry-after.honest reports the lie.
    // 5 s: a retry 1 s after a 429 lands in the same window unless the 429 came in its last second; each window
    // the schemas suite waits out is real time.
    name: 'Retry-After lies (always 1 s while the window is 5 s): checks about other rules still pass',
    fault: {
      reference: { rateLimit: { algorithm: 'fixed-window', quota: 4, windowSeconds: 5 } },
      onResponse: (_req, res) => (res.status === 429 ? { ...res, headers: { ...res.headers, 'retry-after': '1' } } : res),
    },
    suites: ['schemas'],
    failing: [],
    verdict: 'selection-passed',
  },
];
