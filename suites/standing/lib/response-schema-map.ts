/**
 * Which schema a recorded response must match: the operation (method + path matched against the config's
 * path templates) and the status decide. Successes map to the operation's resource schema; client errors to
 * the configured error schema ("error"), except at the OAuth token endpoint, whose errors are RFC 6749 §5.2
 * bodies ("oauth-error") — but a 429 there is the rate limiter's, so "error" again. Nothing is demanded of
 * 1xx/3xx (redirects), 204, HEAD, HTML pages (the consent page), 5xx (standing.no-server-errors' concern),
 * error answers without a JSON body, or successes of operations without a schema (a delete).
 */
import { OPERATION_METHODS as METHODS, type Operation } from '../../../src/config/types.ts';

/** Schema (a schemas/api base name, or a config replacement of it) of each operation's 2xx body. */
const SUCCESS_SCHEMA: Readonly<Partial<Record<Operation, string>>> = {
  sendMessage: 'send-message-response',
  listMessages: 'message-list',
  login: 'login-response',
  account: 'account',
  oauthToken: 'oauth-token-response',
  createCampaign: 'campaign-response',
  getCampaign: 'campaign-response',
  sandboxInbound: 'listed-message',
  createWebhook: 'webhook',
  listWebhooks: 'webhook-list',
};

export interface ResponseFacts {
  method: string;
  /** Path relative to the target's base URL, without the query string. */
  path: string;
  status: number;
  /** Content-Type of the response, if any. */
  contentType?: string;
}

export interface MapOptions {
  paths: Readonly<Record<Operation, string>>;
  /** Whether error bodies are checked against the configured error schema. @default true */
  checkErrors?: boolean;
}

/** The operation a request was for: the path matches the template and the method is the operation's. */
export function operationOf(paths: Readonly<Record<Operation, string>>, method: string, path: string): Operation | undefined {
  const upper = method.toUpperCase();
  return (Object.keys(METHODS) as Operation[]).find((op) => METHODS[op].includes(upper) && templateRegExp(paths[op]).test(path));
}

function templateRegExp(template: string): RegExp {
  const source = template
    .split(/(\{\w+\})/)
    .map((part) => (/^\{\w+\}$/.test(part) ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source.replace(/\/+$/, '')}/?$`);
}

/** The schema name the response must match, or undefined when nothing is demanded of it. */
export function schemaForResponse(facts: ResponseFacts, options: MapOptions): string | undefined {
  const { status } = facts;
  const method = facts.method.toUpperCase();
  if (status < 200 || (status >= 300 && status < 400) || status >= 500 || status === 204 || method === 'HEAD') return undefined;
  if (/^text\/html\b/i.test(facts.contentType ?? '')) return undefined;
  const operation = operationOf(options.paths, method, facts.path);
  if (status < 300) return operation ? SUCCESS_SCHEMA[operation] : undefined;
  if (options.checkErrors === false) return undefined;
  if (operation === 'oauthToken' && status !== 429) return 'oauth-error';
  return /\bjson\b|\+json\b/i.test(facts.contentType ?? '') ? 'error' : undefined;
}

/** The request path relative to the base URL, or undefined when the URL is not under it. */
export function pathUnderBase(url: string, baseUrl: string): string | undefined {
  const target = new URL(url);
  const base = new URL(baseUrl);
  if (target.origin !== base.origin) return undefined;
  const prefix = base.pathname.replace(/\/+$/, '');
  if (prefix && target.pathname !== prefix && !target.pathname.startsWith(`${prefix}/`)) return undefined;
  return target.pathname.slice(prefix.length) || '/';
}
