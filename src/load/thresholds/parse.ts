/**
 * k6 thresholds: `metric{name:x}` keys and expressions `aggregation operator value`, e.g.
 *   http_req_duration: ['p(95)<50', 'avg<=20']      http_req_failed: ['rate<0.01']
 *   'http_req_duration{name:send}': [{ threshold: 'p(99)<100', abortOnFail: true, delayAbortEval: '5s' }]
 * Metrics and their types follow k6: a trend (ms) takes avg, min, max, med and p(N); a rate takes rate;
 * a counter takes count and rate (per second). iteration_duration and iterations are a flow's iterations.
 */
import { parseDuration } from '../duration.ts';
import { suggestKey } from '../../util/suggest.ts';
import type { ThresholdSpec } from '../scenario/types.ts';

export const THRESHOLD_METRICS = {
  http_req_duration: 'trend',
  http_req_failed: 'rate',
  http_reqs: 'counter',
  rate_limited: 'rate',
  dropped_iterations: 'counter',
  // Iterations: a flow's passes through its steps (a mix's request is its own iteration, as in a one-request k6 script).
  iteration_duration: 'trend',
  iterations: 'counter',
} as const;
export type ThresholdMetric = keyof typeof THRESHOLD_METRICS;
type MetricType = (typeof THRESHOLD_METRICS)[ThresholdMetric];

const AGGREGATIONS: Record<MetricType, readonly string[]> = {
  trend: ['avg', 'min', 'max', 'med', 'p(N)'],
  rate: ['rate'],
  counter: ['count', 'rate'],
};

export type Operator = '<' | '<=' | '>' | '>=' | '==' | '===' | '!=';
export type Aggregation = { kind: 'p'; p: number } | { kind: 'avg' | 'min' | 'max' | 'med' | 'rate' | 'count' };

export interface ParsedThreshold {
  /** The key as written, e.g. `http_req_duration{name:send}`. */
  key: string;
  metric: ThresholdMetric;
  /** The `{name:x}` tag, when given. */
  name?: string;
  /** The expression as written. */
  expr: string;
  aggregation: Aggregation;
  operator: Operator;
  value: number;
  abortOnFail: boolean;
  delayAbortEvalMs: number;
}

export interface ThresholdProblem {
  /** Where: the key alone, or the key and the expression's index. */
  at: [string] | [string, number];
  message: string;
  suggestion?: string;
}

const KEY = /^([a-z_]+)\s*(?:\{\s*([^}]*)\s*\})?$/;
const EXPR = /^\s*(p\(\s*(\d+(?:\.\d+)?)\s*\)|avg|min|max|med|rate|count)\s*(<=|>=|===|==|!=|<|>)\s*(-?\d+(?:\.\d+)?(?:e-?\d+)?)\s*$/;

export function parseMetricKey(key: string): { metric: ThresholdMetric; name?: string } | { problem: string; suggestion?: string } {
  const match = KEY.exec(key.trim());
  const known = Object.keys(THRESHOLD_METRICS);
  if (!match) return { problem: `"${key}" is not a metric key: write metric or metric{name:x}` };
  const metric = match[1] as string;
  if (!known.includes(metric)) {
    const suggestion = suggestKey(metric, known);
    return { problem: `unknown metric "${metric}" (known: ${known.join(', ')})`, ...(suggestion ? { suggestion } : {}) };
  }
  if (match[2] === undefined) return { metric: metric as ThresholdMetric };
  const tag = /^name\s*:\s*([A-Za-z0-9_.:-]+)$/.exec(match[2].trim());
  if (!tag) return { problem: `tag "{${match[2]}}": only the name tag is supported, e.g. {name:send}` };
  if (metric === 'dropped_iterations') return { problem: 'dropped_iterations has no name tag: a dropped arrival never picked a request' };
  if (metric === 'iteration_duration' || metric === 'iterations') return { problem: `${metric} has no name tag: an iteration is the whole flow (per step: http_req_duration{name:step})` };
  return { metric: metric as ThresholdMetric, name: tag[1] as string };
}

export function parseExpression(expr: string, metric: ThresholdMetric): { aggregation: Aggregation; operator: Operator; value: number } | { problem: string } {
  const match = EXPR.exec(expr);
  const type = THRESHOLD_METRICS[metric];
  const allowed = AGGREGATIONS[type];
  if (!match) return { problem: `"${expr}" is not a threshold expression: write e.g. ${type === 'trend' ? "'p(95)<200'" : type === 'rate' ? "'rate<0.01'" : "'count<10'"}` };
  const aggregation: Aggregation = match[2] !== undefined ? { kind: 'p', p: Number(match[2]) } : { kind: match[1] as Exclude<Aggregation['kind'], 'p'> };
  const name = aggregation.kind === 'p' ? 'p(N)' : aggregation.kind;
  if (!allowed.includes(name)) return { problem: `${metric} is a ${type}: "${aggregation.kind === 'p' ? match[1] : name}" does not apply (use ${allowed.join(', ')})` };
  if (aggregation.kind === 'p' && (aggregation.p < 0 || aggregation.p > 100)) return { problem: `p(${aggregation.p}): the percentile must be between 0 and 100` };
  return { aggregation, operator: match[3] as Operator, value: Number(match[4]) };
}

/** Every threshold of a scenario, and every problem (all of them, not the first). */
export function parseThresholds(spec: Record<string, readonly ThresholdSpec[]>): { thresholds: ParsedThreshold[]; problems: ThresholdProblem[] } {
  const thresholds: ParsedThreshold[] = [];
  const problems: ThresholdProblem[] = [];
  for (const [key, list] of Object.entries(spec)) {
    const parsedKey = parseMetricKey(key);
    if ('problem' in parsedKey) {
      problems.push({ at: [key], message: parsedKey.problem, ...(parsedKey.suggestion ? { suggestion: parsedKey.suggestion } : {}) });
      continue;
    }
    list.forEach((item, index) => {
      const expr = typeof item === 'string' ? item : item.threshold;
      const parsed = parseExpression(expr, parsedKey.metric);
      if ('problem' in parsed) {
        problems.push({ at: [key, index], message: parsed.problem });
        return;
      }
      const delay = typeof item === 'string' ? 0 : parseDuration(item.delayAbortEval ?? '0s') ?? 0;
      thresholds.push({
        key,
        metric: parsedKey.metric,
        ...(parsedKey.name !== undefined ? { name: parsedKey.name } : {}),
        expr: expr.trim(),
        ...parsed,
        abortOnFail: typeof item === 'string' ? false : item.abortOnFail === true,
        delayAbortEvalMs: delay,
      });
    });
  }
  return { thresholds, problems };
}
