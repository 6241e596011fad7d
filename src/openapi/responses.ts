/**
 * The shared parts of the document's responses: the error responses (401/403/404/415/422/429 and "rejected"),
 * their headers (WWW-Authenticate, Retry-After) and the rate-limit headers, in the style the config names.
 */
import type { RateLimitHeaderStyle } from '../config/types.ts';

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
}

export function errorResponses(options: ErrorResponseOptions): Record<string, Obj> {
  const body = { [options.mediaType]: { schema: options.errorSchema } };
  const limited = rateLimitHeaderRefs(options.style);
  const wwwAuthenticate = (text: string) => ({ description: text, schema: { type: 'string' } });
  return {
    Rejected: { description: 'The request was rejected: a body or parameter that is not valid, or an Idempotency-Key used before with another body.', headers: limited, content: body },
    Unauthorized: {
      description: 'A missing or invalid credential (SERVICE-SPEC §7).',
      headers: { 'WWW-Authenticate': wwwAuthenticate('`Bearer realm="api"`, with `error="invalid_token"` when a credential was sent (RFC 6750 §3).') },
      content: body,
    },
    Forbidden: {
      description: 'The credential lacks the scope the operation needs (SERVICE-SPEC §7).',
      headers: { ...limited, 'WWW-Authenticate': wwwAuthenticate('`Bearer error="insufficient_scope", scope="<needed>"` (RFC 6750 §3.1).') },
      content: body,
    },
    NotFound: { description: 'No such resource.', headers: limited, content: body },
    UnsupportedMediaType: { description: 'The body is not JSON.', headers: limited, content: body },
    TooManyRequests: {
      description: 'Too many requests (SERVICE-SPEC §7, §8).',
      headers: { ...limited, 'Retry-After': { $ref: '#/components/headers/Retry-After' } },
      content: body,
    },
  };
}

export const RETRY_AFTER_HEADER: Obj = {
  description: 'Seconds to wait before the next request (RFC 9110 §10.2.3, RFC 6585 §4).',
  schema: { type: 'integer', minimum: 0 },
};
