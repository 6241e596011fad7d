/**
 * RFC 9457 problem details. Handlers and hooks `throw new ProblemError(...)`; the app's error handler is the
 * only place that turns one into a response, so every error leaves the server in the same shape.
 */
import type { FastifyReply } from 'fastify';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json; charset=utf-8';
const TYPE_BASE = 'https://api-harness.example/problems/';

export interface FieldError {
  /** JSON Pointer (RFC 6901) into the request body or, for query parameters, `/query/<name>`. */
  path: string;
  message: string;
}

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail?: string;
  code: string;
  errors?: FieldError[];
}

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  421: 'Misdirected Request',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
};

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

export function problemBody(status: number, code: string, detail?: string, errors?: FieldError[]): ProblemBody {
  const body: ProblemBody = {
    type: `${TYPE_BASE}${code.replaceAll('_', '-')}`,
    title: TITLES[status] ?? (status >= 500 ? 'Server Error' : 'Client Error'),
    status,
    code,
  };
  if (detail !== undefined) body.detail = detail;
  if (errors !== undefined && errors.length > 0) body.errors = errors;
  return body;
}

export function sendProblem(reply: FastifyReply, problem: ProblemError): FastifyReply {
  return reply.code(problem.status).headers(problem.headers).type(PROBLEM_CONTENT_TYPE).send(problem.toBody());
}

/** 400 validation_failed with one entry per problem. */
export function validationFailed(errors: FieldError[], detail = 'The request is not valid.'): ProblemError {
  return new ProblemError(400, 'validation_failed', { detail, errors });
}
