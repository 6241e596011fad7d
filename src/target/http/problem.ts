/**
 * RFC 9457 problem details. Handlers and hooks `throw new ProblemError(...)`; the app's error handler is the
 * only place that turns one into a response, so every error leaves the server in the same shape.
 */
import type { FastifyReply } from 'fastify';
import { problemBody, type FieldError, type ProblemBody } from '../../schemas/problem.ts';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json; charset=utf-8';
export { problemBody, type FieldError, type ProblemBody } from '../../schemas/problem.ts';

export interface ProblemInit {
  detail?: string;
  errors?: FieldError[];
  /** Extra response headers, e.g. WWW-Authenticate, Retry-After, Allow. */
  headers?: Record<string, string>;
}

export class ProblemError extends Error {
  readonly headers: Record<string, string>;
  readonly errors: FieldError[] | undefined;
  readonly detail: string | undefined;

  constructor(
    readonly status: number,
    readonly code: string,
    init: ProblemInit = {},
  ) {
    super(init.detail ?? code);
    this.name = 'ProblemError';
    this.detail = init.detail;
    this.errors = init.errors;
    this.headers = init.headers ?? {};
  }

  toBody(): ProblemBody {
    return problemBody(this.status, this.code, this.detail, this.errors);
  }
}

export function sendProblem(reply: FastifyReply, problem: ProblemError): FastifyReply {
  return reply.code(problem.status).headers(problem.headers).type(PROBLEM_CONTENT_TYPE).send(problem.toBody());
}

/** 400 validation_failed with one entry per problem. */
export function validationFailed(errors: FieldError[], detail = 'The request is not valid.'): ProblemError {
  return new ProblemError(400, 'validation_failed', { detail, errors });
}
