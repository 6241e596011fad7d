/**
 * What the OpenAPI document says about each PROFILE choice: the path of each operation (found by method and
 * path shape), the list's parameter names and bounds, success statuses, the error media type and schema, and the
 * security schemes. Each choice's evidence is the document's JSON pointer.
 */
import { Findings, InitError } from './choices.ts';
import type { JsonSchema } from './error-schema.ts';
import type { OpenApiDoc } from './openapi-source.ts';

/** Operation → method and the path's last segments (a `{param}` segment matches any parameter name). */
const OPERATIONS: ReadonlyArray<readonly [string, string, RegExp]> = [
  ['sendMessage', 'post', /\/messages$/],
  ['listMessages', 'get', /\/messages$/],
  ['login', 'post', /\/(auth\/)?login$|\/sessions$/],
  ['account', 'get', /\/(account|me)$/],
  ['oauthAuthorize', 'post', /\/authorize$/],
  ['oauthToken', 'post', /\/token$/],
  ['createCampaign', 'post', /\/campaigns$/],
  ['getCampaign', 'get', /\/campaigns\/\{[^}]+\}$/],
  ['sandboxInbound', 'post', /\/inbound$/],
  ['createWebhook', 'post', /\/webhooks$/],
  ['listWebhooks', 'get', /\/webhooks$/],
  ['deleteWebhook', 'delete', /\/webhooks\/\{[^}]+\}$/],
];

const pointer = (...parts: string[]): string => `#/${parts.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`;

export interface DocumentFindings {
  findings: Findings;
  paths: Record<string, string>;
  errorSchema?: { schema: JsonSchema; evidence: string };
}

function deref(doc: OpenApiDoc, value: any, depth = 0): any {
  if (depth > 20 || !value || typeof value !== 'object') return value;
  if (typeof value.$ref === 'string' && value.$ref.startsWith('#/')) {
    const target = value.$ref.slice(2).split('/').reduce((node: any, part: string) => node?.[part.replaceAll('~1', '/').replaceAll('~0', '~')], doc);
    return deref(doc, target, depth + 1);
  }
  if (Array.isArray(value)) return value.map((v) => deref(doc, v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (k !== 'example' && k !== 'examples' && k !== 'xml') out[k] = deref(doc, v, depth + 1);
  return out;
}

/** The base path of the first server (`https://api.example.com/v1` → `/v1`), prefixed to every path. */
function basePath(doc: OpenApiDoc): string {
  const url = doc.servers?.[0]?.url;
  if (typeof url !== 'string') return '';
  try {
    return new URL(url, 'http://x').pathname.replace(/\/+$/, '');
  } catch {
    return '';
  }
}

export function inferFromDocument(doc: OpenApiDoc, source: string): DocumentFindings {
  const out = new Findings();
  const paths: Record<string, string> = {};
  const base = basePath(doc);
  const ops: Record<string, { pathKey: string; method: string; op: any }> = {};
  for (const [name, method, shape] of OPERATIONS) {
    for (const [pathKey, item] of Object.entries(doc.paths as Record<string, any>)) {
      if (!item?.[method] || !shape.test(pathKey) || ops[name]) continue;
      const path = (base + pathKey).replace(/\{[^}]+\}/g, '{id}');
      paths[name] = path;
      ops[name] = { pathKey, method, op: deref(doc, item[method]) };
      out.set(`api.paths.${name}`, path, pointer('paths', pathKey, method), 'document');
    }
  }
  if (!ops.sendMessage && !ops.listMessages && !ops.createCampaign && !ops.createWebhook) {
    throw new InitError('document', `--openapi ${source}: a document of another API — none of its ${Object.keys(doc.paths).length} paths is an operation of this API (messages, campaigns, webhooks); no configuration written`);
  }
  for (const [name, { pathKey, method, op }] of Object.entries(ops)) {
    const codes = Object.keys(op.responses ?? {}).filter((c) => /^[23]\d\d$/.test(c)).sort();
    if (codes.length > 0) out.set(`api.successStatus.${name}`, Number(codes[0]), pointer('paths', pathKey, method, 'responses', codes[0]!), 'document');
  }
  if (ops.listMessages) listParameters(doc, ops.listMessages, out);
  const errorSchema = errorsOf(ops.sendMessage, out);
  securitySchemes(doc, out);
  return { findings: out, paths, ...(errorSchema ? { errorSchema } : {}) };
}

function listParameters(doc: OpenApiDoc, list: { pathKey: string; op: any }, out: Findings): void {
  const item = deref(doc, doc.paths[list.pathKey]);
  const params = [...(item.parameters ?? []), ...(list.op.parameters ?? [])].filter((p: any) => p?.in === 'query');
  const at = (i: number): string => pointer('paths', list.pathKey, 'get', 'parameters', String(i));
  params.forEach((p: any, i: number) => {
    const name = String(p.name);
    const schema = p.schema ?? {};
    if (/^(limit|page_?size|per_?page|pagesize|size|max_?results)$/i.test(name)) {
      out.set('api.query.limit', name, at(i), 'document');
      if (typeof schema.maximum === 'number') out.set('api.pagination.maxLimit', schema.maximum, `${at(i)}/schema/maximum`, 'document');
      if (typeof schema.default === 'number') out.set('api.pagination.defaultLimit', schema.default, `${at(i)}/schema/default`, 'document');
    } else if (/^(cursor|after|page_?token|pagetoken|starting_after|continuation)$/i.test(name)) {
      out.set('api.query.cursor', name, at(i), 'document');
    } else if (/^(from|sender)$/i.test(name)) out.set('api.query.from', name, at(i), 'document');
    else if (/^(since|after_time|start)$/i.test(name)) out.set('api.query.since', name, at(i), 'document');
    else if (/^(until|before_time|end)$/i.test(name)) out.set('api.query.until', name, at(i), 'document');
  });
}

function errorsOf(send: { pathKey: string; method: string; op: any } | undefined, out: Findings): { schema: JsonSchema; evidence: string } | undefined {
  if (!send) return undefined;
  const rejected = Object.keys(send.op.responses ?? {}).filter((c) => c === '400' || c === '422');
  if (rejected.length > 0) out.set('api.rejectedStatus', rejected.map(Number), pointer('paths', send.pathKey, send.method, 'responses'), 'document');
  const code = rejected[0];
  if (!code) return undefined;
  const content = send.op.responses[code].content ?? {};
  const [mediaType] = Object.keys(content);
  if (!mediaType) return undefined;
  const evidence = pointer('paths', send.pathKey, send.method, 'responses', code, 'content', mediaType, 'schema');
  out.set('conformance.profile.problemJson', mediaType === 'application/problem+json', `${evidence} (media type ${mediaType})`, 'document');
  const schema = content[mediaType]?.schema;
  return schema && typeof schema === 'object' ? { schema: stripOpenApi30(schema), evidence } : undefined;
}

/** OpenAPI 3.0's `nullable` is not JSON Schema: `{type: T, nullable: true}` → `{type: [T, "null"]}`. */
function stripOpenApi30(schema: any): any {
  if (Array.isArray(schema)) return schema.map(stripOpenApi30);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) if (k !== 'nullable') out[k] = stripOpenApi30(v);
  if (schema.nullable === true && typeof schema.type === 'string') out.type = [schema.type, 'null'];
  return out;
}

function securitySchemes(doc: OpenApiDoc, out: Findings): void {
  const schemes = doc.components?.securitySchemes ?? {};
  for (const [name, raw] of Object.entries(schemes as Record<string, any>)) {
    const s = deref(doc, raw);
    const bearer = s.type === 'http' && String(s.scheme).toLowerCase() === 'bearer';
    if (s.type === 'apiKey') out.note(`security scheme "${name}" sends the key in ${s.in} "${s.name}": the harness sends credentials as Authorization: Bearer (PROFILE.md); no config key describes another place`);
    else if (!bearer && s.type !== 'oauth2' && s.type !== 'openIdConnect') out.note(`security scheme "${name}" (${s.type} ${s.scheme ?? ''}) is not Bearer: no config key describes it`);
  }
}
