/**
 * `--budget 'p95:+10%,rps:-5%,failed:0'` → typed budgets. Each metric has one bad direction (latency up,
 * throughput down, rates up), so a budget is a size in that direction; a sign pointing the other way is a
 * mistake we name rather than guess about. Every problem is a usage error that names --budget.
 */
import { UsageError } from '../errors/harness-errors.ts';

export type LatencyMetric = 'p50' | 'p95' | 'p99';
export type RateMetric = 'rate429' | 'errorRate';
export type CountMetric = 'failed' | 'errors';

export type Budget =
  /** Latency may grow by at most `percent` % (or `ms` milliseconds) over the baseline's. */
  | { metric: LatencyMetric; text: string; percent?: number; ms?: number }
  /** Throughput may drop by at most `percent` %. */
  | { metric: 'rps'; text: string; percent: number }
  /** The share may grow by at most `points` percentage points. */
  | { metric: RateMetric; text: string; points: number }
  /** At most `max` failed (or errored) checks in each compared run. */
  | { metric: CountMetric; text: string; max: number };

export const BUDGET_METRICS = ['p50', 'p95', 'p99', 'rps', 'failed', 'errors', 'rate429', 'errorRate'] as const;

const FLAG = '--budget';

export function parseBudgets(raw: string): Budget[] {
  const parts = raw.split(',').map((p) => p.trim()).filter((p) => p.length > 0);
  if (parts.length === 0) throw new UsageError(`${FLAG}: empty; expected e.g. 'p95:+10%,rps:-5%,failed:0'`);
  return parts.map(parseOne);
}

function parseOne(text: string): Budget {
  const match = /^([A-Za-z0-9]+)\s*:\s*(.+)$/.exec(text);
  if (!match) throw usage(text, 'expected metric:value, e.g. p95:+10%');
  const metric = match[1] as string;
  const value = (match[2] as string).replace(/\s+/g, '');
  switch (metric) {
    case 'p50':
    case 'p95':
    case 'p99': {
      const m = /^\+?(\d+(?:\.\d+)?)(%|ms)$/.exec(value);
      if (!m) throw usage(text, value.startsWith('-') ? 'latency budgets allow growth: write +10% or +20ms' : 'expected +N% or +Nms');
      return m[2] === '%' ? { metric, text, percent: Number(m[1]) } : { metric, text, ms: Number(m[1]) };
    }
    case 'rps': {
      const m = /^-?(\d+(?:\.\d+)?)%$/.exec(value);
      if (!m) throw usage(text, value.startsWith('+') ? 'a throughput budget allows a drop: write -5%' : 'expected -N%');
      return { metric, text, percent: Number(m[1]) };
    }
    case 'rate429':
    case 'errorRate': {
      const m = /^\+?(\d+(?:\.\d+)?)(pp)?$/.exec(value);
      if (!m) throw usage(text, value.endsWith('%') ? 'rates are budgeted in percentage points: write +2pp' : 'expected +Npp (percentage points)');
      return { metric, text, points: Number(m[1]) };
    }
    case 'failed':
    case 'errors': {
      if (!/^\d+$/.test(value)) throw usage(text, 'expected a whole number of checks allowed, e.g. failed:0');
      return { metric, text, max: Number(value) };
    }
    default:
      throw usage(text, `unknown metric "${metric}"; known: ${BUDGET_METRICS.join(', ')}`);
  }
}

function usage(text: string, why: string): UsageError {
  return new UsageError(`${FLAG}: "${text}": ${why}`);
}
