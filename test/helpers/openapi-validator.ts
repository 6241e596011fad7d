/**
 * Validates recorded responses against an OpenAPI 3.1 document: is the status documented for the operation,
 * and does the body match the documented schema of its media type (AJV, JSON Schema 2020-12)?
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

type Obj = Record<string, any>;
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => Ajv2020;
const DOC_ID = 'https://openapi.test/openapi.json';

export interface ResponseToCheck {
  method: string;
  /** Path with or without a query string. */
  path: string;
  status: number;
  contentType: string | undefined;
  body: string;
}

export class OpenApiResponseValidator {
  readonly #ajv: Ajv2020;
  readonly #routes: { regex: RegExp; template: string }[];

  constructor(readonly doc: Obj) {
    // strict off: the document as a whole is not a schema (openapi, paths …); only its schemas are compiled.
    this.#ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(this.#ajv);
    this.#ajv.addSchema({ ...doc, $id: DOC_ID });
    this.#routes = Object.keys(doc.paths).map((template) => ({
      template,
      regex: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
    }));
  }

  /** The documented operation's path template, or undefined when the document has no such operation. */
  operationOf(method: string, path: string): string | undefined {
    const bare = path.split('?')[0]!;
    const route = this.#routes.find((r) => r.regex.test(bare));
    return route && this.doc.paths[route.template][method.toLowerCase()] ? route.template : undefined;
  }

  /** Problems with one response (empty: it matches the document). */
  problems(res: ResponseToCheck): string[] {
    const template = this.operationOf(res.method, res.path);
    if (!template) return [];
    const method = res.method.toLowerCase();
    const responses = this.doc.paths[template][method].responses as Obj;
    const key = [String(res.status), `${String(res.status)[0]}XX`, 'default'].find((k) => k in responses);
    const where = `${res.method} ${template} → ${res.status}`;
    if (!key) return [`${where}: status not documented (documented: ${Object.keys(responses).join(', ')})`];
    const response = this.#deref(responses[key]);
    if (res.body.length === 0) return [];
    const mediaType = (res.contentType ?? '').split(';')[0]!.trim();
    const content = response.content as Obj | undefined;
    if (!content?.[mediaType]) return [`${where}: body of type "${mediaType}" not documented (documented: ${Object.keys(content ?? {}).join(', ') || 'no body'})`];
    if (!/json/.test(mediaType)) return [];
    const pointer = response === responses[key]
      ? `#/paths/${escape(template)}/${method}/responses/${key}/content/${escape(mediaType)}/schema`
      : `${(responses[key] as { $ref: string }).$ref}/content/${escape(mediaType)}/schema`;
    const validate = this.#ajv.getSchema(`${DOC_ID}${pointer}`);
    if (!validate) return [`${where}: cannot compile ${pointer}`];
    return validate(JSON.parse(res.body)) ? [] : [`${where}: body does not match ${pointer}: ${this.#ajv.errorsText(validate.errors)}; body ${res.body.slice(0, 300)}`];
  }

  #deref(node: Obj): Obj {
    if (typeof node.$ref !== 'string') return node;
    return node.$ref.slice(2).split('/').map(unescape).reduce((at: Obj, part: string) => at[part], this.doc);
  }
}

function escape(part: string): string {
  return part.replace(/~/g, '~0').replace(/\//g, '~1');
}
function unescape(part: string): string {
  return part.replace(/~1/g, '/').replace(/~0/g, '~');
}
