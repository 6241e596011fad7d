/** `harness validate` on flow scenarios: every flow error named with file, line and key path. */
import { describe, expect, it } from 'vitest';
import { checkScenarioText } from '../../../../src/load/scenario/load.ts';

const head = `executor: constant-arrival-rate
rate: 5
duration: 1s
preAllocatedVUs: 2
`;

function issues(yaml: string): Array<{ line?: number; path: string; message: string }> {
  return checkScenarioText(yaml, 'journey.yaml', {}).issues.map((i) => ({ ...(i.line !== undefined ? { line: i.line } : {}), path: i.path, message: i.message }));
}

describe('flow validation', () => {
  it('accepts the shape of the shipped journeys', () => {
    const yaml = `${head}flow:
  steps:
    - name: login
      operation: login
      capture: { token: { json: /token } }
    - name: account
      operation: account
      headers: { authorization: "Bearer {{token}}" }
`;
    expect(issues(yaml)).toEqual([]);
    expect(checkScenarioText(yaml, 'journey.yaml', {}).scenario?.requests.map((r) => r.name)).toEqual(['login', 'account']);
  });

  it('a variable used before it is captured: its line, its path, what is known', () => {
    const found = issues(`${head}flow:
  steps:
    - name: account
      operation: account
      headers: { authorization: "Bearer {{token}}" }
    - name: login
      operation: login
      capture: { token: { json: /token } }
`);
    expect(found).toEqual([{ line: 9, path: 'flow.steps[0].headers.authorization', message: '{{token}} is not set by vars or captured by an earlier step' }]);
  });

  it('schema problems of a step: a capture that is not a JSON pointer, an unknown key, at their lines', () => {
    const found = issues(`${head}flow:
  steps:
    - name: walk
      operation: list
      capture: { next: { json: pagination/next } }
      thinkTime: 1s
`);
    const byPath = Object.fromEntries(found.map((i) => [i.path, i]));
    expect(byPath['flow.steps[0].capture.next.json']).toEqual({ line: 9, path: 'flow.steps[0].capture.next.json', message: expect.stringMatching(/JSON pointer/) });
    expect(byPath['flow.steps[0].thinkTime']?.line).toBe(10);
  });

  it('requests and flow together', () => {
    const found = issues(`${head}requests:
  - operation: list
flow:
  steps:
    - { name: walk, operation: list }
`);
    expect(found).toEqual([{ line: 7, path: 'flow', message: 'give either "requests" (a weighted mix) or "flow" (a journey), not both' }]);
  });

  it('semantic problems past the schema: repeat over nothing, think max < min, a generator name as a variable', () => {
    const found = issues(`${head}flow:
  vars: { seq: "x" }
  steps:
    - name: walk
      operation: list
      capture: { next: { json: /pagination/next } }
      repeat: { while: next, max: 3 }
      think: { min: 2s, max: 1s }
`);
    expect(found).toEqual([
      { line: 6, path: 'flow.vars.seq', message: '"seq" is a generator ({{seq}}); choose another variable name' },
      { line: 11, path: 'flow.steps[0].repeat.while', message: expect.stringMatching(/captured only by this step, so the step would never run/) },
      { line: 12, path: 'flow.steps[0].think', message: 'max (1000 ms) is below min (2000 ms)' },
    ]);
  });

  it('a threshold on a step name that does not exist, with a suggestion', () => {
    const found = issues(`${head}flow:
  steps:
    - { name: login, operation: login }
thresholds:
  'http_req_duration{name:logn}': ['p(99)<100']
`);
    expect(found[0]?.message).toMatch(/no request is named "logn"/);
    expect(found[0]?.line).toBe(9);
  });

  it('neither requests nor flow', () => {
    expect(issues(head)[0]?.message).toMatch(/needs "requests".*or "flow"/);
  });
});
