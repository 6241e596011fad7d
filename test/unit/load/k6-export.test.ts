import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../../src/config/defaults.ts';
import { exportK6Script } from '../../../src/load/export/k6-script.ts';
import { checkScenarioText, loadScenarioFile } from '../../../src/load/scenario/load.ts';
import { applyOverrides } from '../../../src/load/scenario/overrides.ts';
import { resolveScenarioFile, shippedScenarioNames } from '../../../src/load/scenario/resolve.ts';
import { REPO_ROOT } from '../../helpers/cli.ts';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'harness-k6-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const api = defaultConfig().api;

const EVERY_FLOW = `executor: constant-vus
vus: 1
duration: 1s
credential: none
flow:
  onStepFailure: continue
  vars:
    who: "{{phone}}-{{uuid}}-{{seq}}-{{int 1 9}}-{{string 4}}-{{timestamp}}-{{epochMs}}"
  steps:
    - name: first
      method: POST
      path: /things/{{who}}
      query: { q: "{{who}}" }
      body: { name: "{{who}}" }
      headers: { x-who: "{{who}}" }
      capture:
        loc: { header: location }
        code: { status: true }
        id: { json: /id }
        next: { json: /next }
      expectJson: { /name: "{{who}}", /count: 1, /ok: true, /none: null }
      think: { min: 10ms, max: 20ms }
    - name: again
      path: /things/{{id}}
      expectStatus: [200, 404]
      capture:
        next: { json: /next }
      repeat: { while: next, max: 2 }
`;

describe('harness export k6', () => {
  it('maps options.scenarios and thresholds one-to-one', () => {
    const scenario = loadScenarioFile(resolveScenarioFile('stress'));
    const script = exportK6Script(scenario, { api, language: 'ts' });
    const options = JSON.parse(/export const options: Options = (\{[\s\S]*?\n\});/.exec(script)![1]!) as { scenarios: Record<string, Record<string, unknown>>; thresholds: unknown };
    expect(options.scenarios.stress).toEqual({
      executor: 'ramping-arrival-rate',
      startRate: 100,
      timeUnit: '1s',
      preAllocatedVUs: 50,
      maxVUs: 1000,
      stages: scenario.stages,
      gracefulStop: '10s',
      exec: 'stress',
    });
    expect(options.thresholds).toEqual(scenario.thresholds);
    expect(script).toContain("tags: { name: \"send\" }");
    expect(script).toContain('http.setResponseCallback(http.expectedStatuses({ min: 200, max: 399 }, 429));');
    expect(script).toContain("env('HARNESS_LOAD_KEY', '')");
  });

  it('rounds what k6 takes as integers (a ramp scaled by --rate) and says so in the header', () => {
    const scenario = applyOverrides(loadScenarioFile(resolveScenarioFile('stress')), { duration: '1s', rate: 50 });
    const script = exportK6Script(scenario, { api });
    const options = JSON.parse(/export const options = (\{[\s\S]*?\n\});/.exec(script)![1]!) as { scenarios: { stress: { startRate: number; stages: Array<{ target: number }> } } };
    expect(scenario.stages!.some((s) => !Number.isInteger(s.target))).toBe(true);
    for (const stage of options.scenarios.stress.stages) expect(Number.isInteger(stage.target)).toBe(true);
    expect(Number.isInteger(options.scenarios.stress.startRate)).toBe(true);
    expect(script).toMatch(/^\/\/ Rounded to whole numbers, as k6 takes them .*stages\[0\]\.target 16\.\d+ → 17/m);
  });

  it('turns placeholders into code and keeps literal text literal', () => {
    const { scenario } = checkScenarioText(
      'executor: constant-vus\nduration: 1s\ncredential: none\nrequests:\n  - path: "/a/{{uuid}}"\n    method: POST\n    query: { q: "x {{int 1 9}}" }\n    body: "back`tick $${not} {{seq}} {{string 4}}"\n    expectStatus: [200, 202]\n',
      'raw.yaml',
      {},
    );
    const script = exportK6Script(scenario!, { api });
    expect(script).toContain('`${BASE_URL}/a/${uuid()}?q=x%20${encodeURIComponent(String(randomInt(1, 9)))}`');
    expect(script).toContain('`back\\`tick \\${not} ${seq()} ${randomString(4)}`');
    expect(script).toContain('http.expectedStatuses(200, 202, 429)');
    expect(script).not.toContain('TOKEN');
  });

  it('writes JavaScript without syntax k6 0.48 cannot parse by default, and the same code with types for --lang ts (mixes and flows)', () => {
    let flows = 0;
    for (const name of shippedScenarioNames()) {
      const scenario = loadScenarioFile(resolveScenarioFile(name));
      if (scenario.flow) flows++;
      const js = exportK6Script(scenario, { api });
      // k6 < 0.57 parses ES2015+ through goja: no nullish coalescing, no optional chaining, no type syntax.
      expect(js, name).not.toMatch(/\?\?|\?\.|import type|: (?:string|number|void|boolean|unknown|object|Options|Response|Record)\b| as Record/);
      expect(js, name).toMatch(/^export (?:const|var) options = \{/m);
      const ts = exportK6Script(scenario, { api, language: 'ts' });
      expect(ts, name).toMatch(/^export (?:const|var) options: Options = \{/m);
      expect(ts, name).not.toBe(js);
      // Remove the annotations and the type imports: what is left is the JavaScript export (one generator).
      const stripped = ts
        .replace(/^import type .*\n/gm, '')
        .replace(/ as Record<string, unknown>/g, '')
        .replace(/: (?:Array<\(\) => void>|Record<string, unknown>|string \| null|string \| undefined|string\[\]|number\[\]|string|number|void|boolean|unknown|object|Options|Response)(?=[ ,)=;{])/g, '')
        .replace(/k6\.ts\b/g, 'k6.js')
        .replace(/^\/\/ (?:Run|k6's iteration_duration) .*\n/gm, '');
      expect(stripped, name).toBe(js.replace(/^\/\/ (?:Run|k6's iteration_duration) .*\n/gm, ''));
    }
    expect(flows).toBeGreaterThanOrEqual(2);
  });

  it('type-checks every shipped scenario’s export with tsc against @types/k6', async () => {
    const files: string[] = [];
    for (const name of shippedScenarioNames()) {
      const scenario = loadScenarioFile(resolveScenarioFile(name));
      const file = join(dir, `${name}.k6.ts`);
      writeFileSync(file, exportK6Script(scenario, { api, language: 'ts' }));
      files.push(file);
    }
    // And a flow that uses every part of the flow exporter the shipped ones do not: onStepFailure continue, vars
    // with every generator, header and status captures, expectJson of each kind, no credential.
    const { scenario: every, issues } = checkScenarioText(EVERY_FLOW, 'every-flow.yaml', {});
    expect(issues).toEqual([]);
    const everyFile = join(dir, 'every-flow.k6.ts');
    writeFileSync(everyFile, exportK6Script(every!, { api, language: 'ts' }));
    files.push(everyFile);
    const types = join(REPO_ROOT, 'node_modules', '@types');
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          target: 'ES2020',
          module: 'ESNext',
          moduleResolution: 'Bundler',
          lib: ['ES2020'],
          typeRoots: [types],
          types: ['k6'],
          allowImportingTsExtensions: true,
          noUnusedLocals: true,
          paths: { 'k6': [join(types, 'k6', 'index.d.ts')], 'k6/*': [join(types, 'k6', '*')] },
        },
        files,
      }),
    );
    const tsc = join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const result = await run(process.execPath, [tsc, '-p', join(dir, 'tsconfig.json')]).then(
      () => ({ code: 0, out: '' }),
      (err: { code: number; stdout: string; stderr: string }) => ({ code: err.code, out: err.stdout + err.stderr }),
    );
    expect(result.out).toBe('');
    expect(result.code).toBe(0);
    // Every shipped scenario, flows (reader-journey, sender-journey) included.
    expect(files.length).toBe(shippedScenarioNames().length + 1);
    expect(files.some((f) => f.endsWith('reader-journey.k6.ts')) && files.some((f) => f.endsWith('sender-journey.k6.ts'))).toBe(true);
  }, 60_000);
});
