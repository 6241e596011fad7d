/**
 * How long one check may take. A correct target with a small quota must not be failed by the harness's
 * own clock: the deadline is the larger of conformance.checkTimeoutMs and the time the requests the check
 * declares (`Check.requests`) take at the quota per window the target announces (rate-limit headers seen so
 * far) or the config states (api.rateLimitPolicy). The runner adds the time polite requests spend waiting out
 * 429s on top (at most MAX_WAIT_EXTENSION budgets), so a check that waits for the quota is not cut short.
 */
import type { Check } from './check.ts';
import type { CheckContext } from './context.ts';

/** The wait-for-quota extension is bounded: at most this many times the check's own budget. */
export const MAX_WAIT_EXTENSION = 4;

export interface CheckBudget {
  ms: number;
  timeoutMs: number;
  requests?: number;
  policy?: { quota: number; windowS: number; source: 'headers' | 'config' };
}

export function checkBudgetMs(check: Check, ctx: CheckContext, timeoutMs: number): CheckBudget {
  const requests = typeof check.requests === 'function' ? check.requests(ctx.config) : check.requests;
  const policy = policyOf(ctx);
  const budget: CheckBudget = { ms: timeoutMs, timeoutMs, ...(requests !== undefined ? { requests } : {}), ...(policy ? { policy } : {}) };
  if (requests !== undefined && policy) {
    // Whole windows: a window's quota is admitted at its start, the next batch one window later.
    const needMs = Math.ceil(requests / policy.quota) * policy.windowS * 1000;
    budget.ms = Math.max(timeoutMs, needMs);
  }
  return budget;
}

/** "deadline 30 s, quota 3 per 2 s (headers), 40 requests" */
export function describeBudget(budget: CheckBudget): string {
  const parts = [`deadline ${Math.round(budget.ms / 100) / 10} s`];
  if (budget.policy) parts.push(`quota ${budget.policy.quota} per ${budget.policy.windowS} s (${budget.policy.source === 'headers' ? 'announced by the target' : 'api.rateLimitPolicy'})`);
  else parts.push('no quota announced or configured');
  if (budget.requests !== undefined) parts.push(`${budget.requests} requests needed`);
  if (budget.ms === budget.timeoutMs) parts.push('conformance.checkTimeoutMs');
  return parts.join(', ');
}

function policyOf(ctx: CheckContext): CheckBudget['policy'] {
  const announced = ctx.http.polite?.announced;
  if (announced) return { ...announced, source: 'headers' };
  const configured = ctx.config.api.rateLimitPolicy;
  return configured ? { quota: configured.quota, windowS: configured.windowSeconds, source: 'config' } : undefined;
}
