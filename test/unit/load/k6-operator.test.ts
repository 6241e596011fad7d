/**
 * `harness export k6-operator`: the TestRun validates against k6-operator's own CRD schema (v1.6.0, kept in
 * test/fixtures/k6-operator/ with its source), with unknown fields refused as `kubectl apply --validate=strict` does;
 * the runners write one samples file each onto the shared claim, credentials come only from the Secret, and the
 * files the command writes parse back to the same manifests.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { parse, parseAllDocuments, stringify } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../../src/config/defaults.ts';
import { k6OperatorBundle } from '../../../src/load/export/k6-operator.ts';
import { exportK6Script } from '../../../src/load/export/k6-script.ts';
import { loadScenarioFile } from '../../../src/load/scenario/load.ts';
import { resolveScenarioFile } from '../../../src/load/scenario/resolve.ts';
import { REPO_ROOT, runCli } from '../../helpers/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'k6-operator-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Schema = Record<string, unknown>;

/** Unknown fields refused wherever the CRD lists properties and does not keep unknown fields on purpose. */
function strict(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(strict);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Schema = {};
  for (const [k, v] of Object.entries(schema)) out[k] = strict(v);
  if (out.properties && out.additionalProperties === undefined && out['x-kubernetes-preserve-unknown-fields'] !== true) out.additionalProperties = false;
  return out;
}

const crd = parse(readFileSync(join(REPO_ROOT, 'test/fixtures/k6-operator/k6.io_testruns.yaml'), 'utf8')) as { spec: { versions: Array<{ name: string; schema: { openAPIV3Schema: Schema } }> } };
const version = crd.spec.versions.find((v) => v.name === 'v1alpha1')!;
const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
const validateTestRun = ajv.compile(strict(version.schema.openAPIV3Schema) as Schema);
const errorsOf = (doc: unknown): string[] => (validateTestRun(doc) ? [] : (validateTestRun.errors ?? []).map((e) => `${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`));

const api = defaultConfig().api;

describe('harness export k6-operator', () => {
  it.each(['smoke', 'ratelimit', 'stress'])('%s: the TestRun is valid against k6-operator v1.6.0 CRD, each runner writes its own samples file', (name) => {
    const scenario = loadScenarioFile(resolveScenarioFile(name));
    const script = exportK6Script(scenario, { api });
    const bundle = k6OperatorBundle(scenario, { parallelism: 3, baseUrl: 'http://api.test.svc:8080', script, language: 'js', namespace: 'load' }, (v) => stringify(v));
    expect(errorsOf(bundle.manifests.testRun)).toEqual([]);
    const spec = (bundle.manifests.testRun as { spec: Record<string, any> }).spec;
    expect(spec.parallelism).toBe(3);
    // One file per pod on the claim, named by the downward API's pod name (Kubernetes expands $(POD_NAME)).
    expect(spec.arguments).toBe('--out json=/results/$(POD_NAME).json.gz');
    expect(spec.runner.env).toContainEqual({ name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } });
    expect(spec.runner.volumeMounts).toEqual([{ name: 'results', mountPath: '/results' }]);
    expect(spec.runner.volumes[0].persistentVolumeClaim.claimName).toBe((bundle.manifests.claim as any).metadata.name);
    // Credentials only as references to the Secret: never a value.
    const secretEnv = spec.runner.env.filter((e: any) => e.name.startsWith('HARNESS_'));
    expect(secretEnv.length).toBeGreaterThan(0);
    for (const e of secretEnv) expect(e).toEqual({ name: e.name, valueFrom: { secretKeyRef: { name: 'harness-credentials', key: e.name } } });
    expect(spec.script.configMap).toEqual({ name: (bundle.manifests.configMap as any).metadata.name, file: `${name}.k6.js` });
    expect((bundle.manifests.configMap as any).data[`${name}.k6.js`]).toBe(script);
    expect(bundle.steps.join('\n')).toContain(`harness import k6 k6-results/harness-${name}-*.json.gz --scenario ${name}`);
  });

  it('the validation is not vacuous: a misspelled field, a wrong type and a missing parallelism are refused', () => {
    const scenario = loadScenarioFile(resolveScenarioFile('smoke'));
    const good = k6OperatorBundle(scenario, { parallelism: 2, baseUrl: 'http://x', script: '', language: 'js' }, (v) => stringify(v)).manifests.testRun as { spec: Record<string, any> };
    const { parallelism: _p, ...noParallelism } = good.spec;
    expect(errorsOf({ ...good, spec: { ...good.spec, paralellism: 2 } }).join()).toContain('additionalProperty');
    expect(errorsOf({ ...good, spec: { ...good.spec, parallelism: '2' } }).join()).toContain('must be integer');
    expect(errorsOf({ ...good, spec: noParallelism }).join()).toContain('parallelism');
  });

  it('the command writes the files, and they parse back to valid manifests', async () => {
    const out = join(dir, 'bundle');
    const result = await runCli(['export', 'k6-operator', '--scenario', 'smoke', '--parallelism', '2', '--target', 'http://api.default.svc:8080', '--out-dir', out]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('kubectl apply -f results-pvc.yaml -f configmap.yaml -f testrun.yaml');
    const [testRun] = parseAllDocuments(readFileSync(join(out, 'testrun.yaml'), 'utf8')).map((d) => d.toJSON());
    expect(errorsOf(testRun)).toEqual([]);
    const configMap = parse(readFileSync(join(out, 'configmap.yaml'), 'utf8'));
    expect(configMap.data['smoke.k6.js']).toBe(readFileSync(join(out, 'smoke.k6.js'), 'utf8'));
    const claim = parse(readFileSync(join(out, 'results-pvc.yaml'), 'utf8'));
    expect(claim).toMatchObject({ kind: 'PersistentVolumeClaim', spec: { accessModes: ['ReadWriteMany'] } });
    const reader = parse(readFileSync(join(out, 'results-reader.yaml'), 'utf8'));
    expect(reader.spec.volumes[0].persistentVolumeClaim.claimName).toBe(claim.metadata.name);
    const bad = await runCli(['export', 'k6-operator', '--scenario', 'smoke', '--parallelism', '0', '--target', 'http://x', '--out-dir', out]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--parallelism');
  });
});
