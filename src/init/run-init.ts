/**
 * `harness init`: the document (when given) and the target's behaviour (when given) become a commented config and,
 * where the errors are not PROFILE's problem+json, a JSON Schema of them beside it. Both files are written whole
 * or not at all (a temporary file renamed into place), only after the draft loads with the config loader.
 */
import { existsSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { DEFAULT_ERROR_SCHEMA_ID, defaultConfig, loadConfig } from '../config/index.ts';
import type { CredentialsConfig } from '../config/types.ts';
import { UsageError } from '../errors/harness-errors.ts';
import { SecretRegistry } from '../http/redact.ts';
import { collectSecrets } from '../config/secrets.ts';
import { Findings, InitError } from './choices.ts';
import { credentialsFromEnv } from './credentials.ts';
import { errorSchemaDocument, type JsonSchema } from './error-schema.ts';
import { observeTarget, type ErrorSample } from './observe.ts';
import { inferFromDocument } from './openapi-infer.ts';
import { loadOpenApi } from './openapi-source.ts';
import { renderConfig } from './render.ts';

export interface InitOptions {
  target?: string;
  openapi?: string;
  out: string;
  force: boolean;
  env: Record<string, string | undefined>;
  log: (line: string) => void;
  timeoutMs?: number;
}

export interface InitOutcome {
  configFile: string;
  errorSchemaFile?: string;
  findings: Findings;
  requests: number;
}

const PROBLEM_FIELDS = ['type', 'title', 'status'];

export async function runInit(options: InitOptions): Promise<InitOutcome> {
  if (!options.target && !options.openapi) throw new UsageError('harness init needs --target URL (to observe the target), --openapi FILE|URL (to read its document), or both');
  const configFile = resolve(options.out);
  const stem = basename(configFile).replace(/(\.config)?\.ya?ml$/i, '');
  const schemaFile = join(dirname(configFile), `${stem}.error-schema.json`);
  for (const file of [configFile, schemaFile]) {
    if (existsSync(file) && !options.force) throw new InitError('exists', `${file} exists; init never overwrites it without --force (nothing written)`);
  }
  const timeoutMs = options.timeoutMs ?? 10_000;
  const credentials = credentialsFromEnv(options.env);
  const fromDoc = options.openapi ? inferFromDocument(await loadOpenApi(options.openapi, timeoutMs), options.openapi) : undefined;
  const paths = { ...defaultConfig().api.paths, ...fromDoc?.paths } as Record<string, string>;
  let behaviour = new Findings();
  let errors: ErrorSample[] = [];
  let requests = 0;
  if (options.target) {
    const observed = await observeTarget(options.target, credentials, paths, timeoutMs);
    ({ findings: behaviour, errors, requests } = observed);
  }
  const findings = Findings.merge(fromDoc?.findings, behaviour);

  let schema: JsonSchema | undefined;
  if (fromDoc?.errorSchema && findings.choices.get('conformance.profile.problemJson')?.value === false) {
    schema = { $schema: 'https://json-schema.org/draft/2020-12/schema', ...fromDoc.errorSchema.schema };
    findings.set('api.errorSchema', `./${basename(schemaFile)}`, `${fromDoc.errorSchema.evidence}, copied beside this file`, 'document');
  } else if (!fromDoc?.errorSchema) {
    schema = fromBehaviour(errors, findings, schemaFile);
  }
  if (errors.length > 0 && fromDoc?.errorSchema) {
    const problem = errors.every((e) => e.mediaType === 'application/problem+json');
    const documented = findings.choices.get('conformance.profile.problemJson')?.value;
    if (documented !== undefined && documented !== problem) findings.disagreements.push(`errors: the document says ${documented ? '' : 'not '}application/problem+json, the target sent ${[...new Set(errors.map((e) => e.mediaType))].join(', ')} (${errors[0]!.said}); the config follows the document`);
  }

  const source = [options.openapi ? `the OpenAPI document ${options.openapi}` : '', options.target ? `${requests} requests to ${options.target}` : ''].filter(Boolean).join(' and ');
  const text = renderConfig({ ...(options.target ? { baseUrl: options.target } : {}), source, choices: [...findings.choices.values()], notes: findings.notes });
  // The config layer's one list of what counts as a secret, over the credentials init was given.
  const secrets = new SecretRegistry(collectSecrets({ ...defaultConfig(), credentials }));
  if (secrets.redactText(text) !== text) throw new Error('init drafted a config that would hold a credential; nothing written');
  writeAtomically(configFile, text, schema && `${JSON.stringify(schema, null, 2)}\n`, schemaFile, options.env);

  for (const line of findings.disagreements) options.log(`disagreement: ${secrets.redactText(line)}`);
  for (const line of findings.notes) options.log(`note: ${secrets.redactText(line)}`);
  options.log(`wrote ${configFile} (${findings.choices.size} choices${schema ? `; error schema ${schemaFile}` : ''}${options.target ? `; ${requests} requests` : ''})`);
  options.log(`next: harness run --config ${configFile}`);
  return { configFile, ...(schema ? { errorSchemaFile: schemaFile } : {}), findings, requests };
}

function fromBehaviour(errors: readonly ErrorSample[], findings: Findings, schemaFile: string): JsonSchema | undefined {
  const objects = errors.filter((e) => e.body && typeof e.body === 'object' && !Array.isArray(e.body));
  if (objects.length === 0) return undefined;
  const said = objects.map((e) => e.said);
  const types = [...new Set(objects.map((e) => e.mediaType))];
  const problem = types.length === 1 && types[0] === 'application/problem+json';
  if (types.length > 1) findings.note(`error bodies came as ${types.join(' and ')} (${said.join('; ')}): one media type for every error is no config choice`);
  findings.set('conformance.profile.problemJson', problem || types.includes('application/problem+json'), `${said.join('; ')}: errors as ${types.join(', ')}`, 'behaviour');
  if (problem && objects.every((e) => PROBLEM_FIELDS.every((f) => f in (e.body as object)))) {
    findings.set('api.errorSchema', DEFAULT_ERROR_SCHEMA_ID, `${said.length} error bodies, each with ${PROBLEM_FIELDS.join(', ')} (RFC 9457)`, 'behaviour');
    return undefined;
  }
  findings.set('api.errorSchema', `./${basename(schemaFile)}`, `derived from ${said.length} error bodies (${said.join('; ')}), written beside this file`, 'behaviour');
  return errorSchemaDocument(objects.map((e) => e.body), said);
}

/** Each file goes to a temporary name, the draft is loaded as the run would load it, then both are renamed. */
function writeAtomically(configFile: string, text: string, schemaText: string | undefined, schemaFile: string, env: InitOptions['env']): void {
  const suffix = `.init-${process.pid}-${Date.now()}.tmp`;
  const tmpConfig = configFile + suffix;
  const tmpSchema = schemaFile + suffix;
  try {
    writeFileSync(tmpConfig, text, { flag: 'wx' });
    // The draft refers to the schema by its final name: put the schema there first only once the config loads.
    if (schemaText !== undefined) writeFileSync(tmpSchema, schemaText, { flag: 'wx' });
    const probe = schemaText !== undefined ? text.replace(`./${basename(schemaFile)}`, `./${basename(tmpSchema)}`) : text;
    writeFileSync(tmpConfig, probe);
    loadConfig(tmpConfig, { env });
    writeFileSync(tmpConfig, text);
    if (schemaText !== undefined) renameSync(tmpSchema, schemaFile);
    renameSync(tmpConfig, configFile);
  } finally {
    rmSync(tmpConfig, { force: true });
    rmSync(tmpSchema, { force: true });
  }
}
