/**
 * The exported document's examples: every request body and every error response has one, each is valid against
 * its own schema (AJV 2020-12 over the document itself, so refs resolve as a tool resolves them), each problem body
 * carries the status it is documented under, and each is what the reference target (in-process, 127.0.0.1 port 0)
 * really answers: the same type, title, status and code, and the same detail where the detail names no number.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromObject, defaultConfig } from '../../../src/config/index.ts';
import { buildOpenApiDocument } from '../../../src/openapi/index.ts';
import { startReferenceTarget } from '../../../src/target/index.ts';

type Obj = Record<string, any>;
type AddFormats = (ajv: Ajv2020) => Ajv2020;
const addFormats = ((addFormatsModule as unknown as { default?: AddFormats }).default ?? addFormatsModule) as unknown as AddFormats;

const DOC_ID = 'https://openapi.test/document.json';
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

interface Media {
  /** JSON pointer of the media type object. */
  pointer: string;
  media: Obj;
  /** The response status it is documented under (absent for request bodies). */
  status?: string;
  kind: 'request' | 'response';
}

const escape = (s: string) => s.replaceAll('~', '~0').replaceAll('/', '~1');

function deref(doc: Obj, node: Obj): { node: Obj; pointer?: string } {
  if (typeof node.$ref !== 'string') return { node };
  const pointer = node.$ref.slice(1);
  return { node: pointer.slice(1).split('/').map((p: string) => p.replaceAll('~1', '/').replaceAll('~0', '~')).reduce((at: Obj, part: string) => at[part], doc), pointer };
}

/** Every media type object of every operation and webhook: request bodies and responses, refs followed. */
function mediaOf(doc: Obj): Media[] {
  const found: Media[] = [];
  const operations: [string, Obj][] = [];
  for (const [root, items] of [['paths', doc.paths], ['webhooks', doc.webhooks ?? {}]] as const) {
    for (const [path, item] of Object.entries(items as Obj)) {
      for (const method of METHODS) if (item[method]) operations.push([`#/${root}/${escape(path)}/${method}`, item[method]]);
    }
  }
  for (const [at, operation] of operations) {
    for (const [type, media] of Object.entries((operation.requestBody?.content ?? {}) as Obj)) {
      found.push({ pointer: `${at}/requestBody/content/${escape(type)}`, media, kind: 'request' });
    }
    for (const [status, raw] of Object.entries(operation.responses as Obj)) {
      const { node, pointer } = deref(doc, raw);
      for (const [type, media] of Object.entries((node.content ?? {}) as Obj)) {
        found.push({ pointer: `${pointer ? `#${pointer}` : `${at}/responses/${escape(status)}`}/content/${escape(type)}`, media, status, kind: 'response' });
      }
    }
  }
  return found;
}

function examplesOf(media: Obj): [string, unknown][] {
  if ('example' in media) return [['example', media.example]];
  return Object.entries((media.examples ?? {}) as Obj).map(([name, example]) => [name, (example as Obj).value]);
}

function validator(doc: Obj): Ajv2020 {
  // OpenAPI keywords beside the schemas (paths, responses, example) are not JSON Schema: strict mode off.
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  ajv.addSchema({ ...doc, $id: DOC_ID });
  return ajv;
}

/** The problems of every example of `doc`: invalid against its schema, or a status that is not the documented one. */
function exampleProblems(doc: Obj): { checked: number; problems: string[] } {
  const ajv = validator(doc);
  const problems: string[] = [];
  let checked = 0;
  for (const { pointer, media, status } of mediaOf(doc)) {
    const validate = ajv.compile({ $ref: `${DOC_ID}${pointer}/schema` });
    for (const [name, value] of examplesOf(media)) {
      checked++;
      if (!validate(value)) problems.push(`${pointer} ${name}: ${ajv.errorsText(validate.errors)}`);
      const body = value as Obj;
      if (status !== undefined && typeof body?.status === 'number') {
        if (status === 'default' ? body.status < 400 : String(body.status) !== status) problems.push(`${pointer} ${name}: status ${body.status} documented under ${status}`);
      }
    }
  }
  return { checked, problems };
}

describe('the examples of the exported document', () => {
  const doc = buildOpenApiDocument({ api: defaultConfig().api }) as Obj;

  it('every request body and every error response has examples', () => {
    const media = mediaOf(doc);
    const missing = media
      .filter((m) => m.kind === 'request' || (m.status !== undefined && (m.status === 'default' || Number(m.status) >= 400)))
      .filter((m) => examplesOf(m.media).length === 0)
      .map((m) => m.pointer);
    expect(missing).toEqual([]);
    expect(media.filter((m) => m.kind === 'request').length).toBeGreaterThanOrEqual(10);
  });

  it('every example is valid against its own schema and carries the status it is documented under', () => {
    const { checked, problems } = exampleProblems(doc);
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(50);
  });

  it('holds for a differently described target too (422 only, plain JSON errors, x-ratelimit)', () => {
    const config = configFromObject({
      api: { rejectedStatus: [422], malformedJsonStatus: [422], rateLimitHeaders: 'x-ratelimit' },
      conformance: { profile: { problemJson: false } },
    });
    const other = buildOpenApiDocument({ api: config.api, profile: config.conformance.profile }) as Obj;
    expect(other.paths['/v1/whatsapp/messages'].post.responses['400']).toBeUndefined();
    const { checked, problems } = exampleProblems(other);
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(40);
  });

  it('catches an example that breaks its schema or its status (the check is not vacuous)', () => {
    const broken = structuredClone(doc);
    broken.components.responses.Unauthorized.content['application/problem+json'].examples.missing.value.status = 400;
    broken.paths['/v1/auth/login'].post.requestBody.content['application/json'].example = { email: 'a@example.com' };
    const { problems } = exampleProblems(broken);
    expect(problems).toEqual(expect.arrayContaining([expect.stringContaining('status 400 documented under 401'), expect.stringContaining("must have required property 'password'")]));
    // Nothing else: the shared 401 is reported once per operation that documents it, and only these two.
    expect(problems.filter((p) => !/status 400 documented under 401|required property 'password'/.test(p))).toEqual([]);
  });
});

describe('the error examples are what the reference target answers', () => {
  let target: Awaited<ReturnType<typeof startReferenceTarget>>;
  const doc = buildOpenApiDocument({ api: defaultConfig().api }) as Obj;

  beforeAll(async () => {
    target = await startReferenceTarget({ port: 0, rateLimit: { quota: 30, windowSeconds: 60 } });
  });
  afterAll(async () => {
    await target?.close();
  });

  const example = (response: string, name: string): Obj => {
    const content = doc.components.responses[response].content;
    return (Object.values(content)[0] as Obj).examples[name].value;
  };

  async function call(method: string, path: string, init: { key?: string; body?: string; type?: string; headers?: Record<string, string> } = {}): Promise<{ status: number; body: Obj }> {
    const headers: Record<string, string> = { ...init.headers };
    if (init.key) headers.authorization = `Bearer ${init.key}`;
    if (init.body !== undefined) headers['content-type'] = init.type ?? 'application/json';
    const res = await fetch(`${target.baseUrl}${path}`, { method, headers, ...(init.body !== undefined ? { body: init.body } : {}), redirect: 'manual' });
    return { status: res.status, body: (await res.json()) as Obj };
  }

  /** The example matches the answer: type, title, status, code, and the detail too unless it names a number or a field. */
  function expectSameProblem(answer: { status: number; body: Obj }, ex: Obj, sameDetail = true): void {
    expect(answer.status).toBe(ex.status);
    expect({ type: answer.body.type, title: answer.body.title, status: answer.body.status, code: answer.body.code }).toEqual({ type: ex.type, title: ex.title, status: ex.status, code: ex.code });
    if (sameDetail) expect(answer.body.detail).toBe(ex.detail);
  }

  it('400, 401, 403, 404, 415, 422 as the target writes them', async () => {
    const { full, restricted } = target.credentials.apiKeys;
    const send = (body: string, extra: { key?: string; type?: string; headers?: Record<string, string> } = {}) =>
      call('POST', '/v1/whatsapp/messages', { key: full, body, ...extra });

    const invalid = await send(JSON.stringify({ to: 'x', type: 'text', text: { body: '' } }));
    expectSameProblem(invalid, example('BadRequest', 'validation_failed'));
    expect(invalid.body.errors.map((e: Obj) => e.path).sort()).toEqual(example('BadRequest', 'validation_failed').errors.map((e: Obj) => e.path).sort());
    expectSameProblem(await send('{"to":'), example('BadRequest', 'invalid_json'));
    expectSameProblem(await call('GET', '/v1/whatsapp/messages'), example('Unauthorized', 'missing'));
    expectSameProblem(await call('GET', '/v1/whatsapp/messages', { key: 'not-a-key-of-this-target' }), example('Unauthorized', 'invalid'));
    expectSameProblem(await call('POST', '/v1/auth/login', { body: JSON.stringify({ email: 'nobody@example.com', password: 'wrong password' }) }), example('LoginFailed', 'invalid_credentials'));
    expectSameProblem(await send(JSON.stringify({ to: '14155550123', text: 'hi' }), { key: restricted }), example('Forbidden', 'insufficient_scope'));
    expectSameProblem(await call('DELETE', '/v1/webhooks/no-such-webhook', { key: full }), example('NotFound', 'not_found'));
    expectSameProblem(await send('hello', { type: 'text/plain' }), example('UnsupportedMediaType', 'unsupported_media_type'));
    const idempotent = { 'Idempotency-Key': `examples-${Date.now()}` };
    expect((await send(JSON.stringify({ to: '14155550123', text: 'first' }), { headers: idempotent })).status).toBe(201);
    expectSameProblem(await send(JSON.stringify({ to: '14155550123', text: 'second' }), { headers: idempotent }), example('UnprocessableContent', 'conflict'));
  }, 60_000);

  it('the OAuth errors as the target writes them', async () => {
    const { oauth } = target.credentials;
    const token = (body: Obj) => call('POST', '/v1/oauth/token', { body: JSON.stringify(body) });
    const examples = (status: string) => doc.paths['/v1/oauth/token'].post.responses[status].content['application/json'].examples;
    const grant = await token({ grant_type: 'authorization_code', code: 'no-such-code', client_id: oauth.clientId, client_secret: oauth.clientSecret, redirect_uri: oauth.redirectUri });
    expect(grant.status).toBe(400);
    expect(grant.body.error).toBe(examples('400').invalid_grant.value.error);
    const type = await token({ grant_type: 'password', code: 'x', client_id: oauth.clientId, client_secret: oauth.clientSecret });
    expect({ status: type.status, ...type.body }).toEqual({ status: 400, ...examples('400').unsupported_grant_type.value });
    const client = await token({ grant_type: 'authorization_code', code: 'x', client_id: oauth.clientId, client_secret: 'wrong secret' });
    expect({ status: client.status, ...client.body }).toEqual({ status: 401, ...examples('401').invalid_client.value });

    const authorize = doc.paths['/v1/oauth/authorize'];
    const query = new URLSearchParams({ response_type: 'code', client_id: oauth.clientId, redirect_uri: 'https://elsewhere.example/cb' });
    const refused = await call('GET', `/v1/oauth/authorize?${query}`);
    expectSameProblem(refused, authorize.get.responses['400'].content['application/problem+json'].examples.invalid_redirect_uri.value);
    const notForm = await call('POST', '/v1/oauth/authorize', { body: 'decision approve', type: 'text/plain' });
    expectSameProblem(notForm, authorize.post.responses.default.content['application/problem+json'].examples.unsupported_media_type.value);
  }, 60_000);

  it('429 as the target writes it', async () => {
    const key = target.credentials.apiKeys.second;
    let answer: { status: number; body: Obj } | undefined;
    // Bounded: the quota is 30 per 60 s, so the 31st request at the latest is refused.
    for (let i = 0; i < 40 && answer?.status !== 429; i++) answer = await call('GET', '/v1/whatsapp/messages', { key });
    // The detail names the target's quota and wait, which differ from the example's.
    expectSameProblem(answer!, example('TooManyRequests', 'rate_limited'), false);
  }, 60_000);
});
