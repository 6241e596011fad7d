/**
 * `harness export k6-operator`: what a user applies to run one scenario on N k6-operator runner pods and get ONE
 * verdict back. k6-operator splits the test into execution segments (`parallelism`), and each runner judges its
 * thresholds on its own slice only, so the runners here write every sample instead (`--out json`, gzip), each to its
 * own file on a shared volume that outlives the pods; `harness import k6` merges the files exactly and judges the
 * thresholds once, on the union.
 *
 * Choices, each what a k6-operator user can do with stock Kubernetes and a stock grafana/k6 image:
 *  - results on a PersistentVolumeClaim mounted in every runner (`runner.volumes` / `runner.volumeMounts`, in the
 *    TestRun CRD since the operator's first TestRun release), because pod logs and a pod's own files go with it;
 *  - one file per runner, named after the pod: POD_NAME comes from the downward API (`runner.env` fieldRef) and
 *    Kubernetes expands `$(POD_NAME)` in the container command, which is where the operator puts `arguments`
 *    (a ConfigMap script is run without a shell, so no shell syntax is needed or used);
 *  - `arguments` (a string, every operator version) rather than `args` (added in v1.6: older operators reject it);
 *  - credentials only as `secretKeyRef`s to a Secret the user creates: no secret value is ever written to a file;
 *  - K6_SYSTEM_TAGS keeps the tags the merge reads (and drops `url`, `proto`, …): smaller lines, same numbers;
 *  - a reader Pod that mounts the same claim, for `kubectl cp` (busybox has the tar that kubectl cp needs).
 * The manifests are plain objects; the CLI writes them as YAML. test/unit/load/k6-operator.test.ts validates the
 * TestRun against k6-operator's own CRD schema (test/fixtures/k6-operator/).
 */
import type { Scenario } from '../scenario/types.ts';
import { credentialEnvNames, k6Identifier, k6ScriptFileName, type K6Language } from './k6-script.ts';

export interface K6OperatorOptions {
  /** Runner pods (the TestRun's `parallelism`). */
  parallelism: number;
  /** BASE_URL the runners send to (the target's URL as seen from inside the cluster). */
  baseUrl: string;
  /** The script, as `exportK6Script` wrote it. */
  script: string;
  language: K6Language;
  /** Secret holding the credentials, one key per environment variable. @default "harness-credentials" */
  secretName?: string;
  /** Runner image. @default "grafana/k6:0.48.0" (the k6 version this project ran) */
  image?: string;
  /** How the steps name the scenario for `harness import k6 --scenario` (what the user passed). @default scenario.name */
  scenarioRef?: string;
  /** Namespace for every object. @default none (kubectl's current namespace) */
  namespace?: string;
  /** Storage the results claim asks for. @default "5Gi" */
  storage?: string;
  /** StorageClass of the results claim (it must offer ReadWriteMany when runners land on several nodes). */
  storageClass?: string;
}

export interface K6OperatorBundle {
  /** File name → content (YAML for the manifests, the script as it is). */
  files: Record<string, string>;
  /** The manifests as objects, in apply order (for validation). */
  manifests: { configMap: Record<string, unknown>; claim: Record<string, unknown>; testRun: Record<string, unknown>; reader: Record<string, unknown> };
  /** The TestRun's and the objects' names, and the commands a user runs, in order. */
  names: { testRun: string; configMap: string; claim: string; reader: string; secret: string };
  steps: string[];
}

/** Where every runner writes its samples (inside the pod; the claim is mounted there). */
export const RESULTS_MOUNT = '/results';
/** The tags the merge reads (src/k6/): the rest only make lines longer. */
export const K6_SYSTEM_TAGS = 'status,name,method,scenario,expected_response,error,error_code,check';
export const DEFAULT_K6_IMAGE = 'grafana/k6:0.48.0';

/** Kubernetes object names: lower-case letters, digits and '-', at most 63 characters. */
export function k8sName(text: string): string {
  const name = text.toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 63).replace(/-+$/, '');
  return name || 'harness';
}

export function k6OperatorBundle(scenario: Scenario, options: K6OperatorOptions, toYaml: (value: unknown) => string): K6OperatorBundle {
  const base = k8sName(`harness-${scenario.name}`);
  const names = { testRun: base, configMap: `${base}-script`.slice(0, 63), claim: `${base}-results`.slice(0, 63), reader: `${base}-reader`.slice(0, 63), secret: options.secretName ?? 'harness-credentials' };
  const scriptFile = k6ScriptFileName(scenario, options.language);
  const metadata = (name: string): Record<string, unknown> => ({ name, ...(options.namespace ? { namespace: options.namespace } : {}), labels: { 'app.kubernetes.io/managed-by': 'harness', 'harness/scenario': k8sName(scenario.name) } });
  const secretEnv = credentialEnvNames(scenario);
  const configMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: metadata(names.configMap), data: { [scriptFile]: options.script } };
  const claim = {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: metadata(names.claim),
    spec: {
      accessModes: ['ReadWriteMany'],
      resources: { requests: { storage: options.storage ?? '5Gi' } },
      ...(options.storageClass ? { storageClassName: options.storageClass } : {}),
    },
  };
  const volume = { name: 'results', persistentVolumeClaim: { claimName: names.claim } };
  const testRun = {
    apiVersion: 'k6.io/v1alpha1',
    kind: 'TestRun',
    metadata: metadata(names.testRun),
    spec: {
      parallelism: options.parallelism,
      script: { configMap: { name: names.configMap, file: scriptFile } },
      // One gzip'd NDJSON file per runner pod (pods are named <testrun>-<index>-<suffix>), on the claim: every
      // sample, mergeable exactly, after the pod is gone. k6 creates no folders, so the file sits at the mount's top.
      arguments: `--out json=${RESULTS_MOUNT}/$(POD_NAME).json.gz`,
      runner: {
        image: options.image ?? DEFAULT_K6_IMAGE,
        env: [
          { name: 'BASE_URL', value: options.baseUrl },
          ...secretEnv.map((name) => ({ name, valueFrom: { secretKeyRef: { name: names.secret, key: name } } })),
          { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
          { name: 'K6_SYSTEM_TAGS', value: K6_SYSTEM_TAGS },
        ],
        volumes: [volume],
        volumeMounts: [{ name: 'results', mountPath: RESULTS_MOUNT }],
      },
    },
  };
  const reader = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: metadata(names.reader),
    spec: {
      restartPolicy: 'Never',
      containers: [{ name: 'reader', image: 'busybox:1.36', command: ['sleep', '3600'], volumeMounts: [{ name: 'results', mountPath: RESULTS_MOUNT, readOnly: true }] }],
      volumes: [volume],
    },
  };
  const ns = options.namespace ? ` -n ${options.namespace}` : '';
  const literals = secretEnv.map((name) => ` --from-literal=${name}="$${name}"`).join('');
  const source = options.scenarioRef ?? scenario.name;
  const steps = [
    ...(secretEnv.length ? [`kubectl${ns} create secret generic ${names.secret}${literals}`] : []),
    `kubectl${ns} apply -f results-pvc.yaml -f configmap.yaml -f testrun.yaml`,
    `kubectl${ns} wait --for=jsonpath='{.status.stage}'=finished testrun/${names.testRun} --timeout=1h`,
    `kubectl${ns} apply -f results-reader.yaml && kubectl${ns} wait --for=condition=Ready pod/${names.reader}`,
    `kubectl${ns} cp ${names.reader}:${RESULTS_MOUNT} ./k6-results`,
    `npx harness import k6 k6-results/${names.testRun}-*.json.gz --scenario ${source}`,
    `kubectl${ns} delete -f results-reader.yaml -f testrun.yaml -f configmap.yaml   # the claim (results-pvc.yaml) keeps the files until you delete it`,
  ];
  const header = (what: string): string => `# ${what} — written by \`harness export k6-operator\` for scenario "${scenario.name}" (${options.parallelism} runners).\n`;
  const files: Record<string, string> = {
    [scriptFile]: options.script,
    'configmap.yaml': header('the k6 script as a ConfigMap') + toYaml(configMap),
    'results-pvc.yaml': header('where every runner writes its samples; ReadWriteMany when runners land on several nodes') + toYaml(claim),
    'testrun.yaml': header(`the k6-operator TestRun: ${options.parallelism} runners, each writing ${RESULTS_MOUNT}/<pod name>.json.gz`) + toYaml(testRun),
    'results-reader.yaml': header('a pod that mounts the results claim, for kubectl cp') + toYaml(reader),
    'STEPS.txt': `Steps (kubectl lines need a cluster with k6-operator installed; export the credential variables first):\n${steps.map((s, i) => `${i + 1}. ${s}`).join('\n')}\n`,
  };
  return { files, manifests: { configMap, claim, testRun, reader }, names, steps };
}

export { k6Identifier };
