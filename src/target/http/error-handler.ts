/**
 * Turns anything thrown during a request into a problem+json answer. Our own ProblemErrors carry status, code
 * and headers; Fastify's client errors (body parser, content type, size) are mapped to the profile's codes;
 * whatever is left is a bug and answers 500 without leaking its message.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ProblemError, sendProblem } from './problem.ts';

/** Fastify error code → [status, problem code, detail]. */
const FASTIFY_ERRORS: Record<string, [number, string, string]> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'unsupported_media_type', 'Send the body as application/json.'],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'payload_too_large', 'The request body is larger than this server accepts.'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'invalid_json', 'The body is empty but the Content-Type says JSON.'],
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'invalid_json', 'The body is not valid JSON.'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'bad_request', 'Content-Length does not match the body.'],
  FST_ERR_BAD_URL: [400, 'bad_request', 'The request URL is malformed.'],
  FST_ERR_MAX_PARAM_LENGTH: [414, 'uri_too_long', 'A path parameter is too long.'],
};

/** Maps any error to the problem we answer with. Exported for the OAuth token route's own error mapping. */
export function toProblem(error: unknown): ProblemError {
  if (error instanceof ProblemError) return error;
  const err = error as Partial<FastifyError> & { status?: number };
  const known = err.code ? FASTIFY_ERRORS[err.code] : undefined;
  if (known) return new ProblemError(known[0], known[1], { detail: known[2] });
  // JSON.parse failures (and prototype-poisoning refusals) arrive as SyntaxError-like errors with statusCode 400.
  if (err.statusCode === 400 && (error instanceof SyntaxError || /JSON|__proto__|constructor/i.test(err.message ?? ''))) {
    return new ProblemError(400, 'invalid_json', { detail: 'The body is not valid JSON.' });
  }
  const status = err.statusCode ?? err.status;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return new ProblemError(status, 'bad_request', { detail: err.message });
  }
  return new ProblemError(500, 'internal_error', { detail: 'An unexpected error occurred.' });
}

export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler(async (error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const problem = toProblem(error);
    if (problem.status >= 500) request.log.error({ err: error }, 'unhandled error');
    return sendProblem(reply, problem);
  });
}

/**
 * Fastify's `frameworkErrors` option: errors raised before routing (malformed URL, over-long parameter).
 * These replies skip the app's hooks, so the request id is set here.
 */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  reply.header('X-Request-Id', request.id);
  void sendProblem(reply, toProblem(error));
}
