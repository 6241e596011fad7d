/**
 * Each request uses one unit of the quota (draft-ietf-httpapi-ratelimit-headers-09 §3: the quota unit is
 * "request" unless qu says otherwise), so the remaining quota r goes down by exactly one per admitted request —
 * unless the quota frees up in between (a window turns over, a bucket refills), which only raises it.
 * Read on consecutive admitted requests of the probe (its first burst and its recovery runs, all at full pace); when
 * those hold too few readings (a key the earlier checks left nearly spent answers its first burst with a 429 or
 * two), the check gathers its own: it lets the key recover (bounded by conformance.maxWaitSeconds) and sends up to
 * OWN_READS reads back to back.
 */
import { defineCheck } from '../../src/conformance/check.ts';
import { fail, skip } from '../../src/conformance/outcomes.ts';
import type { CheckContext } from '../../src/conformance/context.ts';
import { requiresCredential } from '../../src/conformance/preconditions.ts';
import { readRateLimit } from '../../src/ratelimit/headers.ts';
import type { Sample } from '../../src/ratelimit/probe/index.ts';
import { probe, recover } from '../lib/rate-limit-burst.ts';
import { suiteProbe } from './lib/probe.ts';

/** Consecutive readings the judgement wants: enough that one window turn-over cannot hide a wrong step. */
const MIN_PAIRS = 5;
/** Most reads the check sends itself when the probe's trace holds too few. */
const OWN_READS = 12;

type Pair = readonly [number, number];

/** Pairs of remaining readings of consecutive primary requests, both admitted, in the same burst or run. */
function probePairs(samples: readonly Sample[]): Pair[] {
  const primary = samples.filter((s) => s.credential === 'primary' && s.phase !== 'silent-wait').sort((a, b) => a.t - b.t);
  const pairs: Pair[] = [];
  for (let i = 1; i < primary.length; i++) {
    const a = primary[i - 1]!;
    const b = primary[i]!;
    const sameStretch = a.phase === b.phase && (a.phase === 'burst' || a.phase === 'run');
    if (sameStretch && a.admitted && b.admitted && a.remaining !== undefined && b.remaining !== undefined) pairs.push([a.remaining, b.remaining]);
  }
  return pairs;
}

/** The check's own readings: the key recovers first (bounded), then OWN_READS reads one after another. */
async function ownPairs(ctx: CheckContext): Promise<{ pairs: Pair[]; note: string }> {
  const key = ctx.credentials.apiKey!;
  const style = ctx.config.api.rateLimitHeaders;
  let first = await probe(ctx, key);
  if (first.status === 429) {
    if (!(await recover(ctx, key, first))) return { pairs: [], note: `the key stayed throttled for conformance.maxWaitSeconds (${ctx.config.conformance.maxWaitSeconds} s)` };
    first = await probe(ctx, key);
  }
  const readings: Array<number | undefined> = [first.status === 429 ? undefined : readRateLimit(first.headers, style, Date.now()).remaining];
  let sent = 1;
  while (sent < OWN_READS) {
    const res = await probe(ctx, key);
    sent++;
    readings.push(res.status === 429 ? undefined : readRateLimit(res.headers, style, Date.now()).remaining);
    if (res.status === 429) {
      await recover(ctx, key, res);
      break;
    }
  }
  const pairs = readings.slice(1).flatMap((b, i) => {
    const a = readings[i];
    return a !== undefined && b !== undefined ? [[a, b] as const] : [];
  });
  return { pairs, note: `${sent} reads of its own` };
}

export const remainingByOne = requiresCredential('apiKey')(
  defineCheck({
    id: 'ratelimit.headers.remaining-decrements-by-one',
    suite: 'ratelimit',
    title: 'The remaining quota goes down by exactly one per admitted request (never by more, and not standing still)',
    level: 'SHOULD',
    specRef: 'draft-ietf-httpapi-ratelimit-headers-09 §3 (quota units: requests unless qu says otherwise), §4 (r: remaining quota units)',
    clauses: ['§8.1'],
    owasp: ['API4:2023'],
    async run(ctx) {
      if (ctx.config.api.rateLimitHeaders === 'none') skip('the config says the target sends no rate-limit headers (api.rateLimitHeaders: none)');
      const result = await suiteProbe(ctx);
      if (result.claimed.quotaUnit !== undefined && result.claimed.quotaUnit !== 'requests') {
        skip(`the policy counts "${result.claimed.quotaUnit}", not requests`);
      }
      let pairs = probePairs(result.samples);
      let source = `the probe's bursts and runs (${pairs.length} consecutive pairs)`;
      if (pairs.length < MIN_PAIRS) {
        const own = await ownPairs(ctx);
        pairs = [...pairs, ...own.pairs];
        source = `the probe's bursts and runs, then ${own.note} (${pairs.length} consecutive pairs)`;
        if (pairs.length < 2) skip(`too few consecutive readings of the remaining quota (${pairs.length}) from ${source}`);
      }
      const steps = pairs.map(([a, b]) => b - a);
      const tooFar = steps.filter((d) => d < -1);
      const byOne = steps.filter((d) => d === -1).length;
      if (tooFar.length > 0 || byOne * 2 < steps.length) {
        const shown = pairs.slice(0, 8).map(([a, b]) => `${a} → ${b}`).join(', ');
        fail(tooFar.length > 0
          ? `expected the remaining quota to go down by one per request, got drops of ${[...new Set(tooFar.map((d) => -d))].join(', ')} (${shown} …; read on ${source})`
          : `expected the remaining quota to go down by one per request, but only ${byOne} of ${steps.length} consecutive requests lowered it by one (${shown} …; read on ${source})`, {
          expected: 'remaining(n+1) = remaining(n) − 1, or higher when the quota frees up',
          steps: steps.slice(0, 50),
          pairs: pairs.length,
        });
      }
    },
  }),
);
