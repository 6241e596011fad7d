/**
 * The API's error body: RFC 9457 problem details as PROFILE.md fixes them (`type` under the project's problem base,
 * the status's RFC 9110 reason phrase as `title`, the profile's snake_case `code`). The reference target answers
 * with it (src/target/http/problem.ts) and the OpenAPI document's error examples are built with it
 * (src/openapi/examples.ts), so the two cannot drift apart; both may import src/schemas/.
 */

export const PROBLEM_TYPE_BASE = 'https://api-harness.example/problems/';

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

/** RFC 9110 reason phrases. */
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

export function problemBody(status: number, code: string, detail?: string, errors?: FieldError[]): ProblemBody {
  const body: ProblemBody = {
    type: `${PROBLEM_TYPE_BASE}${code.replaceAll('_', '-')}`,
    title: TITLES[status] ?? (status >= 500 ? 'Server Error' : 'Client Error'),
    status,
    code,
  };
  if (detail !== undefined) body.detail = detail;
  if (errors !== undefined && errors.length > 0) body.errors = errors;
  return body;
}
