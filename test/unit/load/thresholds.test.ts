import { describe, expect, it } from 'vitest';
import { Recorder } from '../../../src/load/metrics/recorder.ts';
import { abortingThreshold, evaluateThresholds } from '../../../src/load/thresholds/evaluate.ts';
import { parseExpression, parseMetricKey, parseThresholds } from '../../../src/load/thresholds/parse.ts';

describe('threshold parsing', () => {
  it.each([
    ['p(95)<50', { aggregation: { kind: 'p', p: 95 }, operator: '<', value: 50 }],
    ['p(99.9) <= 120.5', { aggregation: { kind: 'p', p: 99.9 }, operator: '<=', value: 120.5 }],
    ['avg<10', { aggregation: { kind: 'avg' }, operator: '<', value: 10 }],
    ['med>=1', { aggregation: { kind: 'med' }, operator: '>=', value: 1 }],
    ['max!=0', { aggregation: { kind: 'max' }, operator: '!=', value: 0 }],
  ])('trend %s', (expr, want) => expect(parseExpression(expr, 'http_req_duration')).toEqual(want));

  it('checks the aggregation against the metric type, as k6 does', () => {
    expect(parseExpression('rate<0.01', 'http_req_failed')).toMatchObject({ aggregation: { kind: 'rate' } });
    expect(parseExpression('count==0', 'dropped_iterations')).toMatchObject({ operator: '==' });
    expect(parseExpression('rate>100', 'http_reqs')).toMatchObject({ aggregation: { kind: 'rate' } });
    expect(parseExpression('p(95)<1', 'http_req_failed')).toEqual({ problem: expect.stringContaining('is a rate') });
    expect(parseExpression('rate<1', 'http_req_duration')).toEqual({ problem: expect.stringContaining('use avg, min, max, med, p(N)') });
    expect(parseExpression('p95<1', 'http_req_duration')).toEqual({ problem: expect.stringContaining('not a threshold expression') });
    expect(parseExpression('p(101)<1', 'http_req_duration')).toEqual({ problem: expect.stringContaining('between 0 and 100') });
  });

  it('parses metric keys with a name tag and suggests misspelt metrics', () => {
    expect(parseMetricKey('http_req_duration{name:send}')).toEqual({ metric: 'http_req_duration', name: 'send' });
    expect(parseMetricKey('http_req_duration{ name: send }')).toEqual({ metric: 'http_req_duration', name: 'send' });
    expect(parseMetricKey('http_req_durations')).toMatchObject({ suggestion: 'http_req_duration' });
    expect(parseMetricKey('http_req_duration{status:200}')).toMatchObject({ problem: expect.stringContaining('only the name tag') });
    expect(parseMetricKey('dropped_iterations{name:x}')).toMatchObject({ problem: expect.stringContaining('no name tag') });
  });

  it('collects every problem with where it is', () => {
    const { thresholds, problems } = parseThresholds({
      http_req_duration: ['p(95)<50', 'bogus'],
      http_req_failde: ['rate<0.01'],
      'http_req_duration{name:send}': [{ threshold: 'p(99)<100', abortOnFail: true, delayAbortEval: '2s' }],
    });
    expect(problems.map((p) => p.at)).toEqual([['http_req_duration', 1], ['http_req_failde']]);
    expect(thresholds).toHaveLength(2);
    expect(thresholds[1]).toMatchObject({ name: 'send', abortOnFail: true, delayAbortEvalMs: 2000 });
  });
});

describe('requests that did not complete never let a latency threshold pass', () => {
  const { thresholds } = parseThresholds({ http_req_duration: ['p(99)<500'] });

  it('a failure recorded at its elapsed time counts in latency (the open model records every failure so)', () => {
    const recorder = new Recorder(['send']);
    for (let i = 0; i < 10; i++) recorder.recordError(0, 'ECONNRESET', 0, 900);
    const [result] = evaluateThresholds(thresholds, recorder);
    expect(result!.ok).toBe(false);
    expect(result!.actual).toBeGreaterThan(800);
  });

  it('failures with no elapsed time (closed model: resets, truncations) fail the threshold instead of "ok (actual 0)"', () => {
    const recorder = new Recorder(['send']);
    for (let i = 0; i < 10; i++) recorder.recordError(0, 'ECONNRESET', 0);
    expect(evaluateThresholds(thresholds, recorder)[0]).toMatchObject({ ok: false, actual: 0 });
    // One such failure among answers is enough: the metric no longer covers every request.
    const mixed = new Recorder(['send']);
    for (let i = 0; i < 99; i++) mixed.record(0, 200, true, 5, 0);
    mixed.recordError(0, 'HPE_HEADER_OVERFLOW', 0);
    expect(evaluateThresholds(thresholds, mixed)[0]!.ok).toBe(false);
    const healthy = new Recorder(['send']);
    for (let i = 0; i < 99; i++) healthy.record(0, 200, true, 5, 0);
    expect(evaluateThresholds(thresholds, healthy)[0]!.ok).toBe(true);
  });
});

describe('threshold evaluation', () => {
  const recorder = new Recorder(['send', 'list']);
  for (let i = 1; i <= 100; i++) recorder.record(0, 201, true, i, 0); // send: 1..100 ms
  for (let i = 0; i < 98; i++) recorder.record(1, 200, true, 1, 0);
  recorder.record(1, 429, false, 1, 0);
  recorder.record(1, 500, false, 1, 0);
  recorder.recordDropped(0);
  recorder.elapsedMs = 2000;

  it('computes each aggregation and names the threshold in the result', () => {
    const { thresholds } = parseThresholds({
      'http_req_duration{name:send}': ['p(99)<50', 'med<=51', 'max<100.1', 'min>=1'],
      http_req_failed: ['rate<0.01'],
      rate_limited: ['rate<0.01'],
      'http_req_failed{name:list}': ['rate<=0.01'],
      http_reqs: ['count==200', 'rate==100'],
      dropped_iterations: ['count<1'],
    });
    const results = evaluateThresholds(thresholds, recorder);
    const byExpr = Object.fromEntries(results.map((r) => [`${r.metric} ${r.expr}`, r]));
    expect(byExpr['http_req_duration{name:send} p(99)<50']).toMatchObject({ ok: false, actual: 99.007 });
    expect(byExpr['http_req_duration{name:send} med<=51']!.ok).toBe(true);
    expect(byExpr['http_req_duration{name:send} max<100.1']).toMatchObject({ ok: true }); // HDR: 0.1 % resolution
    expect(byExpr['http_req_failed rate<0.01']).toMatchObject({ ok: true, actual: 0.005 }); // the 429 is not a failure
    expect(byExpr['rate_limited rate<0.01']).toMatchObject({ ok: true, actual: 0.005 });
    expect(byExpr['http_req_failed{name:list} rate<=0.01']).toMatchObject({ ok: true, actual: 0.01 });
    expect(byExpr['http_reqs count==200']!.ok).toBe(true);
    expect(byExpr['http_reqs rate==100']!.ok).toBe(true);
    expect(byExpr['dropped_iterations count<1']).toMatchObject({ ok: false, actual: 1 });
  });

  it('aborts only on abortOnFail thresholds, after their delay', () => {
    const { thresholds } = parseThresholds({
      http_req_duration: ['p(99)<1'],
      'http_req_duration{name:send}': [{ threshold: 'p(99)<50', abortOnFail: true, delayAbortEval: '5s' }],
    });
    expect(abortingThreshold(thresholds, recorder, 4000)).toBeUndefined();
    expect(abortingThreshold(thresholds, recorder, 5000)).toMatchObject({ metric: 'http_req_duration{name:send}', ok: false });
  });
});
