/**
 * The exported document in the two TypeScript client generators people point at an OpenAPI document, run as a user
 * runs them (their CLIs): openapi-typescript (types, used through openapi-fetch) and @hey-api/openapi-ts (types, an
 * SDK and its fetch client). Both outputs must type-check with `tsc --strict` and no `skipLibCheck`, a consumer
 * file that calls the API through each must type-check too (with `@ts-expect-error` on wrong calls, so the types are
 * real and not `any`), and run against the reference target (in-process, 127.0.0.1 port 0): send, receive through
 * the sandbox, list, and a typed error answer.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../../src/config/index.ts';
import { buildOpenApiDocument } from '../../../src/openapi/index.ts';
import { startReferenceTarget } from '../../../src/target/index.ts';
import { REPO_ROOT } from '../../helpers/cli.ts';

const run = promisify(execFile);
const bin = (path: string) => join(REPO_ROOT, 'node_modules', path);
const TSC = bin('typescript/bin/tsc');

let dir: string;
let target: Awaited<ReturnType<typeof startReferenceTarget>>;

/** What a command printed, also when it failed (a failed tsc's diagnostics are on stdout). */
async function output(file: string, args: string[], timeout: number): Promise<{ code: number; text: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [file, ...args], { cwd: dir, timeout, maxBuffer: 16 << 20, env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' } });
    return { code: 0, text: `${stdout}${stderr}` };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string; message: string };
    return { code: typeof e.code === 'number' ? e.code : 1, text: `${e.stdout ?? ''}${e.stderr ?? ''}${e.message}` };
  }
}

const OPENAPI_FETCH_CLIENT = `
import createClient from 'openapi-fetch';
import type { components, paths } from './schema.js';

type Problem = components['schemas']['ProblemDetails'];

export async function viaOpenapiFetch(baseUrl: string, key: string, text: string) {
  const api = createClient<paths>({ baseUrl, headers: { authorization: \`Bearer \${key}\` } });
  // @ts-expect-error: "to" is required by every send-message form
  void api.POST('/v1/whatsapp/messages', { body: { type: 'text', text: { body: text } } });
  const sent = await api.POST('/v1/whatsapp/messages', { body: { to: '14155550123', type: 'text', text: { body: text } } });
  const id: string | undefined = sent.data?.id;
  const received = await api.POST('/v1/sandbox/inbound', { body: { from: '14155550123', text } });
  const listed = await api.GET('/v1/whatsapp/messages', { params: { query: { limit: 100 } } });
  const texts: string[] = (listed.data?.data ?? []).map((m) => m.text);
  const refused = await api.POST('/v1/whatsapp/messages', { body: { to: 'not-a-number', type: 'text', text: { body: text } } });
  const problem: Problem | undefined = refused.error;
  return { sent: sent.response.status, id, received: received.response.status, listed: listed.response.status, texts, refused: refused.response.status, problem };
}
`;

const HEY_API_CLIENT = `
import { client } from './hey/client.gen.js';
import { listMessages, sandboxInbound, sendMessage } from './hey/sdk.gen.js';
import type { ProblemDetails, SendMessageRequest } from './hey/types.gen.js';

export async function viaHeyApi(baseUrl: string, key: string, text: string) {
  client.setConfig({ baseUrl, auth: () => key });
  // @ts-expect-error: "to" is required by every send-message form
  const missingTo: SendMessageRequest = { type: 'text', text: { body: text } };
  void missingTo;
  const sent = await sendMessage({ body: { to: '14155550123', type: 'text', text: { body: text } } });
  const id: string | undefined = sent.data?.id;
  const received = await sandboxInbound({ body: { from: '14155550123', text } });
  const listed = await listMessages({ query: { limit: 100 } });
  const texts: string[] = (listed.data?.data ?? []).map((m) => m.text);
  const refused = await sendMessage({ body: { to: 'not-a-number', type: 'text', text: { body: text } } });
  const problem = refused.error as ProblemDetails | undefined;
  return { sent: sent.response.status, id, received: received.response.status, listed: listed.response.status, texts, refused: refused.response.status, problem };
}
`;

const MAIN = `
import { viaOpenapiFetch } from './openapi-fetch-client.js';
import { viaHeyApi } from './hey-api-client.js';

const [baseUrl, key] = process.argv.slice(2) as [string, string];
const results = {
  openapiFetch: await viaOpenapiFetch(baseUrl, key, 'sent through openapi-fetch'),
  heyApi: await viaHeyApi(baseUrl, key, 'sent through the hey-api sdk'),
};
process.stdout.write(JSON.stringify(results));
`;

/** The hey-api client generated with a known server, given only the credential: its default base URL is the target. */
const SERVED_MAIN = `
import { client } from './hey-served/client.gen.js';
import { listMessages } from './hey-served/sdk.gen.js';

client.setConfig({ auth: () => process.argv[2]! });
const listed = await listMessages({ query: { limit: 1 } });
process.stdout.write(String(listed.response.status));
`;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'harness-clients-'));
  // The consumer files import openapi-fetch and the generated code imports nothing else: the repository's
  // node_modules (devDependencies) serve them.
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  writeFileSync(join(dir, 'openapi.json'), JSON.stringify(buildOpenApiDocument({ api: defaultConfig().api }), null, 2));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'clients', private: true, type: 'module' }));
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { target: 'ES2022', lib: ['ES2022', 'DOM', 'DOM.Iterable'], module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: false, noEmit: true, types: ['node'] },
      include: ['*.ts', 'hey/**/*.ts'],
    }),
  );
  writeFileSync(join(dir, 'openapi-fetch-client.ts'), OPENAPI_FETCH_CLIENT);
  writeFileSync(join(dir, 'hey-api-client.ts'), HEY_API_CLIENT);
  writeFileSync(join(dir, 'main.ts'), MAIN);
  target = await startReferenceTarget({ port: 0 });
  // Exported with the target's base URL known (--server, target.baseUrl): the generated client's default.
  writeFileSync(join(dir, 'openapi-served.json'), JSON.stringify(buildOpenApiDocument({ api: defaultConfig().api, serverUrl: target.baseUrl })));
  writeFileSync(join(dir, 'served-main.ts'), SERVED_MAIN);
}, 60_000);

afterAll(async () => {
  await target?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('harness export openapi in the TypeScript client generators', () => {
  it('openapi-typescript generates types', async () => {
    const result = await output(bin('openapi-typescript/bin/cli.js'), ['openapi.json', '-o', 'schema.d.ts'], 120_000);
    expect(result.text).not.toMatch(/error/i);
    expect(result.code).toBe(0);
  }, 150_000);

  it('@hey-api/openapi-ts generates an SDK without crashing', async () => {
    const result = await output(bin('@hey-api/openapi-ts/bin/run.js'), ['-i', 'openapi.json', '-o', 'hey'], 120_000);
    expect(result.text).not.toMatch(/error/i);
    expect(result.code).toBe(0);
  }, 150_000);

  it('@hey-api/openapi-ts: a known target base URL becomes the client\'s default, "/" (unknown) bakes in none', async () => {
    const generated = await output(bin('@hey-api/openapi-ts/bin/run.js'), ['-i', 'openapi-served.json', '-o', 'hey-served'], 120_000);
    expect(generated.code, generated.text).toBe(0);
    expect(readFileSync(join(dir, 'hey-served', 'client.gen.ts'), 'utf8')).toContain(`baseUrl: '${target.baseUrl}'`);
    const called = await output(bin('tsx/dist/cli.mjs'), ['served-main.ts', target.credentials.apiKeys.full], 60_000);
    expect(called.text).toBe('200');
    // The document without a known target (the test above generated ./hey from it): servers "/", no default.
    expect(readFileSync(join(dir, 'hey', 'client.gen.ts'), 'utf8')).not.toMatch(/baseUrl:/);
    expect(readFileSync(join(dir, 'hey', 'types.gen.ts'), 'utf8')).toContain('baseUrl: `${string}://${string}` | (string & {});');
  }, 200_000);

  it('both outputs and the clients that use them type-check with tsc --strict and no skipLibCheck', async () => {
    const result = await output(TSC, ['-p', 'tsconfig.json'], 180_000);
    expect(result.text).toBe('');
    expect(result.code).toBe(0);
  }, 200_000);

  it('both clients call the reference target: send, receive, list, and a typed problem answer', async () => {
    const result = await output(bin('tsx/dist/cli.mjs'), ['main.ts', target.baseUrl, target.credentials.apiKeys.full], 60_000);
    expect(result.code, result.text).toBe(0);
    const out = JSON.parse(result.text) as Record<string, { sent: number; id?: string; received: number; listed: number; texts: string[]; refused: number; problem?: { status: number; code: string } }>;
    for (const [client, text] of [['openapiFetch', 'sent through openapi-fetch'], ['heyApi', 'sent through the hey-api sdk']] as const) {
      const r = out[client]!;
      expect(r.sent, client).toBe(201);
      expect(r.id, client).toMatch(/.+/);
      expect(r.received, client).toBe(201);
      expect(r.listed, client).toBe(200);
      expect(r.texts, client).toContain(text);
      expect(r.refused, client).toBe(400);
      expect(r.problem, client).toMatchObject({ status: 400, code: 'validation_failed' });
    }
  }, 90_000);
});
