/**
 * The errors suite: bodies of 401/403/429, 404, 405 + Allow, 415, malformed JSON, problem+json, X-Request-Id.
 * The 429 is provoked on the address bucket (or credentials.secondKey), never on credentials.apiKey: the
 * ratelimit suite runs next and needs that key fresh.
 */
import type { Suite } from '../../src/conformance/registry.ts';
import { forbiddenBody, problemContentType, rateLimitedBody, unauthorizedBody } from './problem-bodies.ts';
import { malformedJsonClientError, malformedJsonStatus, unsupportedMediaType } from './request-bodies.ts';
import { requestIdEchoed, requestIdPresent } from './request-id.ts';
import { validationProblemBody } from './validation-body.ts';
import { headOnGetPaths } from './head.ts';
import { allowHeader, unknownPathNotFound, wrongMethodStatus } from './routing.ts';

export const errorsSuite: Suite = {
  name: 'errors',
  title: 'Error statuses and bodies: 401/403/429, 404, 405, 415, malformed JSON',
  checks: [
    unauthorizedBody,
    forbiddenBody,
    unknownPathNotFound,
    wrongMethodStatus,
    allowHeader,
    headOnGetPaths,
    unsupportedMediaType,
    malformedJsonClientError,
    malformedJsonStatus,
    validationProblemBody,
    problemContentType,
    requestIdPresent,
    requestIdEchoed,
    rateLimitedBody,
  ],
};
