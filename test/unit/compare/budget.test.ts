import { describe, expect, it } from 'vitest';
import { parseBudgets } from '../../../src/compare/budget.ts';
import { UsageError } from '../../../src/errors/harness-errors.ts';

describe('parseBudgets', () => {
  it('reads every metric', () => {
    expect(parseBudgets('p95:+10%, rps:-5%,failed:0,p50:+20ms,p99:15%,errors:2,rate429:+2pp,errorRate:0.5')).toEqual([
      { metric: 'p95', text: 'p95:+10%', percent: 10 },
      { metric: 'rps', text: 'rps:-5%', percent: 5 },
      { metric: 'failed', text: 'failed:0', max: 0 },
      { metric: 'p50', text: 'p50:+20ms', ms: 20 },
      { metric: 'p99', text: 'p99:15%', percent: 15 },
      { metric: 'errors', text: 'errors:2', max: 2 },
      { metric: 'rate429', text: 'rate429:+2pp', points: 2 },
      { metric: 'errorRate', text: 'errorRate:0.5', points: 0.5 },
    ]);
  });

  it.each([
    ['', /empty/],
    ['p95', /expected metric:value/],
    ['p97:+10%', /unknown metric "p97"; known: p50, p95/],
    ['p95:-10%', /latency budgets allow growth/],
    ['p95:ten', /expected \+N% or \+Nms/],
    ['rps:+5%', /throughput budget allows a drop/],
    ['rps:5', /expected -N%/],
    ['rate429:2%', /percentage points/],
    ['errorRate:x', /expected \+Npp/],
    ['failed:-1', /whole number/],
  ])('%j is a usage error naming --budget', (raw, why) => {
    let error: unknown;
    try {
      parseBudgets(raw);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toMatch(/^--budget: /);
    expect((error as Error).message).toMatch(why);
  });
});
