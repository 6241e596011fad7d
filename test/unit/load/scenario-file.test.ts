import { describe, expect, it } from 'vitest';
import { validateFile } from '../../../src/config/file-kinds.ts';
import { formatConfigIssue } from '../../../src/errors/harness-errors.ts';
import { applyOverrides } from '../../../src/load/scenario/overrides.ts';
import { checkScenarioText, splitPathMessage } from '../../../src/load/scenario/load.ts';
import { registerScenarioFileKind } from '../../../src/load/scenario/file-kind.ts';
import { shippedScenarioNames, resolveScenarioFile } from '../../../src/load/scenario/resolve.ts';
import { loadScenarioFile } from '../../../src/load/scenario/load.ts';

const messages = (text: string): string[] => checkScenarioText(text, 'x.yaml', {}).issues.map(formatConfigIssue);

describe('scenario files', () => {
  it('applies defaults to a valid file', () => {
    const { scenario, issues } = checkScenarioText('executor: constant-arrival-rate\nrate: 10\nduration: 2s\npreAllocatedVUs: 2\nrequests:\n  - operation: send\n  - method: GET\n    path: /v1/account\n', 'scenarios/mine.yaml', {});
    expect(issues).toEqual([]);
    expect(scenario).toMatchObject({
      name: 'mine',
      credential: 'loadKey',
      timeUnit: '1s',
      maxVUs: 2,
      gracefulStop: '10s',
      rateLimitedAsFailure: false,
      requests: [{ name: 'send', weight: 1 }, { name: 'get_v1_account', weight: 1 }],
    });
  });

  it('reports every problem with file:line:column, path and a suggestion', () => {
    const text = [
      'executor: constant-arrival-rate', //  1
      'rat: 10', //                          2  unknown key → "rate"
      'duration: 10 seconds', //             3  not a duration
      'preAllocatedVUs: 0', //               4  minimum
      'requests:', //                        5
      '  - operation: sned', //              6  enum
      'thresholds:', //                      7
      "  http_req_durations: ['p(95)<1']", // 8 unknown metric
    ].join('\n');
    expect(messages(text)).toEqual([
      'x.yaml:2:1: rat: unknown key "rat" (did you mean "rate"?)',
      'x.yaml:3:11: duration: must be a duration such as 500ms, 30s, 1m30s or 2h',
      'x.yaml:4:18: preAllocatedVUs: must be >= 1',
      'x.yaml:6:16: requests[0].operation: must be one of: send, list, account, login, inbound, webhooks',
    ]);
  });

  it('runs the executor’s validate, templates and thresholds once the schema holds', () => {
    const text = [
      'executor: constant-vus', //                                   1
      'duration: 5s', //                                             2
      'rate: 100', //                                                3  not an option of constant-vus
      'requests:', //                                                4
      '  - name: send', //                                           5
      '    operation: send', //                                      6
      '    body: { to: "{{phone}}", text: "{{nope}}" }', //          7  unknown placeholder
      '  - path: /x', //                                             8
      '    query: { n: "{{int 5 1}}" }', //                         9  bad arguments
      'thresholds:', //                                              10
      "  http_req_duration: ['p(95)<50', 'rate<1']", //              11 wrong aggregation
      "  'http_req_duration{name:sand}': ['p(99)<1']", //            12 unknown name
      "  http_req_faild: ['rate<0.1']", //                           13 misspelt metric
    ].join('\n');
    const got = messages(text);
    expect(got).toEqual([
      'x.yaml:3:7: rate: does not apply to constant-vus (it is an option of constant-arrival-rate)',
      'x.yaml:7:36: requests[0].body.text: unknown placeholder {{nope}} (known: {{seq}}, {{phone}}, {{uuid}}, {{timestamp}}, {{epochMs}}, {{int}}, {{string}})',
      'x.yaml:9:17: requests[1].query.n: {{int A B}} needs whole numbers A <= B, got "5 1"',
      "x.yaml:11:35: thresholds.http_req_duration[1]: http_req_duration is a trend: \"rate\" does not apply (use avg, min, max, med, p(N))",
      'x.yaml:12:3: thresholds["http_req_duration{name:sand}"]: no request is named "sand" (names: send, get_x) (did you mean "send"?)',
      'x.yaml:13:3: thresholds.http_req_faild: unknown metric "http_req_faild" (known: http_req_duration, http_req_failed, http_reqs, rate_limited, dropped_iterations, iteration_duration, iterations) (did you mean "http_req_failed"?)',
    ]);
  });

  it('explains YAML syntax errors and a top level that is not a mapping', () => {
    expect(messages('executor: [\n')[0]).toMatch(/^x\.yaml:\d+:\d+: invalid YAML/);
    expect(messages('- a\n- b\n')).toEqual(['x.yaml:1:1: the top level must be a mapping of options (key: value), found a list']);
  });

  it('is told apart from a config by `harness validate`', () => {
    registerScenarioFileKind();
    for (const name of shippedScenarioNames()) {
      expect(validateFile(resolveScenarioFile(name))).toEqual({ kind: 'scenario', issues: [] });
    }
    expect(shippedScenarioNames()).toEqual(expect.arrayContaining(['smoke', 'baseline', 'stress', 'soak', 'capacity']));
  });

  it('splits "path: message" from executor messages', () => {
    expect(splitPathMessage('stages[1].target: must be >= 0')).toEqual({ path: ['stages', 1, 'target'], message: 'must be >= 0' });
    expect(splitPathMessage('no path here')).toEqual({ path: [], message: 'no path here' });
  });

  it('applies --duration and --rate, keeping a ramp’s shape', () => {
    const stress = loadScenarioFile(resolveScenarioFile('stress'));
    const shorter = applyOverrides(stress, { duration: '6s', rate: 300 });
    expect(shorter.stages!.map((s) => s.duration)).toEqual(['2s', '2s', '1s', '1s']);
    expect(Math.max(...shorter.stages!.map((s) => s.target))).toBe(300);
    expect(shorter.startRate).toBe(10);
    const smoke = applyOverrides(loadScenarioFile(resolveScenarioFile('smoke')), { duration: '1s', rate: 5 });
    expect(smoke).toMatchObject({ duration: '1s', rate: 5 });
    expect(() => applyOverrides({ ...smoke, executor: 'constant-vus' }, { rate: 5 })).toThrow(/closed model/);
  });

  it('workers is a number or auto', () => {
    const base = 'executor: constant-arrival-rate\nrate: 10\nduration: 2s\npreAllocatedVUs: 2\nrequests: [{ operation: send }]\n';
    expect(checkScenarioText(`${base}workers: auto\n`, 'x.yaml', {}).scenario?.workers).toBe('auto');
    expect(checkScenarioText(`${base}workers: 3\n`, 'x.yaml', {}).scenario?.workers).toBe(3);
    expect(messages(`${base}workers: many\n`).join('\n')).toMatch(/x\.yaml:6:\d+: workers: /);
  });
});
