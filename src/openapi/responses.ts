/**
 * The shared parts of the document's responses: the error responses (one per rejected status, 401/403/404/415/429),
 * their headers (WWW-Authenticate, Retry-After) and the rate-limit headers, in the style the config names.
 */
import type { RateLimitHeaderStyle } from '../config/types.ts';
import {
  FORBIDDEN_EXAMPLE,
  LOGIN_UNAUTHORIZED_EXAMPLE,
  NOT_FOUND_EXAMPLE,
  rejectedExamples,
  TOO_MANY_REQUESTS_EXAMPLE,
  UNAUTHORIZED_EXAMPLES,
  UNSUPPORTED_MEDIA_TYPE_EXAMPLE,
  type Example,
} from './examples.ts';

type Obj = Record<string, unknown>;

const INT = { type: 'integer', minimum: 0 };

/**
 * The rate-limit response headers per style (`api.rateLimitHeaders`); `auto` documents PROFILE.md's choice,
 * the IETF draft-09 fields, since the document must name one.
 */
export function rateLimitHeaders(style: RateLimitHeaderStyle): Record<string, Obj> {
  switch (style) {
    case 'none':
      return {};
    case 'ietf-draft-06':
      return {
        'RateLimit-Limit': { description: 'Quota of the window (draft-ietf-httpapi-ratelimit-headers-06).', schema: INT },
        'RateLimit-Remaining': { description: 'Requests left in the window.', schema: INT },
        'RateLimit-Reset': { description: 'Seconds until the quota resets.', schema: INT },
      };
    case 'ietf-draft-07':
      return {
        'RateLimit-Policy': { description: 'Quota policies, an RFC 9651 List: `<quota>;w=<window seconds>` (draft-ietf-httpapi-ratelimit-headers-07).', schema: { type: 'string' }, example: '100;w=1' },
        RateLimit: { description: 'An RFC 9651 Dictionary: `limit=<quota>, remaining=<left>, reset=<seconds to reset>`.', schema: { type: 'string' }, example: 'limit=100, remaining=99, reset=1' },
      };
    case 'x-ratelimit':
      return {
        'X-RateLimit-Limit': { description: 'Quota of the window.', schema: INT },
        'X-RateLimit-Remaining': { description: 'Requests left in the window.', schema: INT },
        'X-RateLimit-Reset': { description: 'When the quota resets (seconds, or a Unix time).', schema: INT },
      };
    default:
      return {
        'RateLimit-Policy': {
          description: 'Quota policies, an RFC 9651 List: `"default";q=<quota>;w=<window seconds>` (draft-ietf-httpapi-ratelimit-headers-09).',
          schema: { type: 'string' },
          example: '"default";q=100;w=1',
        },
        RateLimit: {
          description: 'What is left of a policy, an RFC 9651 List: `"default";r=<remaining>;t=<seconds to reset>`.',
          schema: { type: 'string' },
          example: '"default";r=99;t=1',
        },
      };
  }
}

/** `$ref`s to the rate-limit headers of `components.headers`, for a response's `headers`. */
export function rateLimitHeaderRefs(style: RateLimitHeaderStyle): Record<string, Obj> {
  return Object.fromEntries(Object.keys(rateLimitHeaders(style)).map((name) => [name, { $ref: `#/components/headers/${name}` }]));
}

export interface ErrorResponseOptions {
  style: RateLimitHeaderStyle;
  /** `application/problem+json` (RFC 9457, PROFILE.md) or plain JSON when the target does not use it. */
  mediaType: string;
  /** `$ref` of the error body's schema (`api.errorSchema`). */
  errorSchema: Obj;
  /**
   * Whether the error bodies are the built-in problem details, so the examples (written in that shape) apply; a
   * config's own error schema gets no examples rather than ones that would not fit it.
   */
  examples: boolean;
  /** Statuses a rejected request may get (`api.rejectedStatus` and `api.malformedJsonStatus`). */
  rejectedStatuses: readonly number[];
  /** Statuses a body that is not JSON may get (`api.malformedJsonStatus`). */
  malformedJsonStatuses: readonly number[];
  /** Whether 422 documents an Idempotency-Key reused with another body (PROFILE.md idempotency). */
  idempotencyConflict: boolean;
}

const REJECTED_NAMES: Record<number, string> = { 400: 'BadRequest', 409: 'Conflict', 422: 'UnprocessableContent' };

/**
 * The response component of a rejected request answered with `status`. One component per status, not one shared
 * "rejected" response, because an example body's `status` must equal the status it is documented under.
 */
export function rejectedResponseName(status: number): string {
  return REJECTED_NAMES[status] ?? `Rejected${status}`;
}

export function errorResponses(options: ErrorResponseOptions): Record<string, Obj> {
  const content = (examples: Record<string, Example>) => ({
    [options.mediaType]: { schema: options.errorSchema, ...(options.examples ? { examples } : {}) },
  });
  const limited = rateLimitHeaderRefs(options.style);
  const wwwAuthenticate = (text: string, example: string) => ({ description: text, schema: { type: 'string' }, example });
  const responses: Record<string, Obj> = {};
  for (const status of [...new Set(options.rejectedStatuses)].sort((a, b) => a - b)) {
    const conflict = status === 422 && options.idempotencyConflict;
    responses[rejectedResponseName(status)] = {
      description: `The request was rejected: a body or parameter that is not valid${conflict ? ', or an Idempotency-Key used before with another body' : ''}.`,
      headers: limited,
      content: content(rejectedExamples(status, { malformedJson: options.malformedJsonStatuses.includes(status), conflict })),
    };
  }
  return {
    ...responses,
    Unauthorized: {
      description: 'A missing or invalid credential (SERVICE-SPEC §7).',
      headers: {
        'WWW-Authenticate': wwwAuthenticate('`Bearer realm="api"`, with `error="invalid_token"` when a credential was sent (RFC 6750 §3).', 'Bearer realm="api", error="invalid_token"'),
      },
      content: content(UNAUTHORIZED_EXAMPLES),
    },
    LoginFailed: {
      description: 'An email and password that match no account; the same body for an unknown email and a wrong password.',
      headers: { 'WWW-Authenticate': wwwAuthenticate('`Bearer realm="api"`.', 'Bearer realm="api"') },
      content: content({ invalid_credentials: LOGIN_UNAUTHORIZED_EXAMPLE }),
    },
    Forbidden: {
      description: 'The credential lacks the scope the operation needs (SERVICE-SPEC §7).',
      headers: {
        ...limited,
        'WWW-Authenticate': wwwAuthenticate('`Bearer error="insufficient_scope", scope="<needed>"` (RFC 6750 §3.1).', 'Bearer error="insufficient_scope", scope="messages:send"'),
      },
      content: content({ insufficient_scope: FORBIDDEN_EXAMPLE }),
    },
    NotFound: { description: 'No such resource.', headers: limited, content: content({ not_found: NOT_FOUND_EXAMPLE }) },
    UnsupportedMediaType: { description: 'The body is not JSON.', headers: limited, content: content({ unsupported_media_type: UNSUPPORTED_MEDIA_TYPE_EXAMPLE }) },
    TooManyRequests: {
      description: 'Too many requests (SERVICE-SPEC §7, §8).',
      headers: { ...limited, 'Retry-After': { $ref: '#/components/headers/Retry-After' } },
      content: content({ rate_limited: TOO_MANY_REQUESTS_EXAMPLE }),
    },
  };
}

export const RETRY_AFTER_HEADER: Obj = {
  description: 'Seconds to wait before the next request (RFC 9110 §10.2.3, RFC 6585 §4).',
  schema: { type: 'integer', minimum: 0 },
};
