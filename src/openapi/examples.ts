/**
 * The document's examples: a valid request body per operation (explorers start "try it" from it, and a body
 * generated from the schema alone would fail its patterns) and the error bodies each documented status answers.
 * Error bodies are built by the reference target's own builder (src/schemas/problem.ts: `type` under
 * https://api-harness.example/problems/, the status's reason phrase as `title`, the profile's snake_case `code`),
 * each with the `status` of the response it documents; test/integration/openapi/examples.test.ts compares these
 * bodies with the ones the reference target answers, and validates every example against its own schema with AJV.
 */
import type { Operation } from '../config/types.ts';
import { problemBody, type FieldError } from '../schemas/problem.ts';

type Obj = Record<string, unknown>;

/** An OpenAPI Example Object. */
export interface Example {
  summary: string;
  value: unknown;
}

/** An RFC 9457 problem body as the reference target writes it (the same builder: src/schemas/problem.ts). */
export function problem(status: number, code: string, detail: string, errors?: FieldError[]): Obj {
  return { ...problemBody(status, code, detail, errors) };
}

/** The named error examples of a rejected request answered with `status`. */
export function rejectedExamples(status: number, options: { malformedJson: boolean; conflict: boolean }): Record<string, Example> {
  const examples: Record<string, Example> = {
    validation_failed: {
      summary: 'A body that breaks its schema: one entry per problem, each with a JSON Pointer into the body',
      value: problem(status, 'validation_failed', 'The request is not valid.', [
        { path: '/to', message: 'must match pattern "^[1-9][0-9]{6,14}$"' },
        { path: '/text/body', message: 'must NOT have fewer than 1 characters' },
      ]),
    },
  };
  if (options.malformedJson) examples.invalid_json = { summary: 'A body that is not JSON', value: problem(status, 'invalid_json', 'The body is not valid JSON.') };
  if (options.conflict) {
    examples.conflict = {
      summary: 'An Idempotency-Key used before with another body',
      value: problem(status, 'conflict', 'This Idempotency-Key was already used with a different request body.'),
    };
  }
  return examples;
}

export const UNAUTHORIZED_EXAMPLES: Record<string, Example> = {
  missing: { summary: 'No credential sent', value: problem(401, 'unauthorized', 'A Bearer credential is required.') },
  invalid: {
    summary: 'A credential that is invalid, expired, revoked or of a kind the operation does not take',
    value: problem(401, 'unauthorized', 'The credential is invalid, expired, revoked or not accepted by this operation.'),
  },
};

export const FORBIDDEN_EXAMPLE: Example = {
  summary: 'A credential without the scope the operation needs',
  value: problem(403, 'insufficient_scope', 'This credential lacks the scope messages:send.'),
};

export const NOT_FOUND_EXAMPLE: Example = { summary: 'No resource with this id', value: problem(404, 'not_found', 'No webhook with this id.') };

export const UNSUPPORTED_MEDIA_TYPE_EXAMPLE: Example = {
  summary: 'A body that is not application/json',
  value: problem(415, 'unsupported_media_type', 'Send the body as application/json.'),
};

export const TOO_MANY_REQUESTS_EXAMPLE: Example = {
  summary: "The credential's quota for the window is used up",
  value: problem(429, 'rate_limited', 'Rate limit of 100 requests per 1 s exceeded; retry after 1 s.'),
};

/** Errors of POST /v1/auth/login beside the shared ones: its 401 is about the account, not a credential. */
export const LOGIN_UNAUTHORIZED_EXAMPLE: Example = {
  summary: 'An email and password that match no account',
  value: problem(401, 'invalid_credentials', 'The email or password is incorrect.'),
};

/** RFC 6749 §5.2 error bodies of the token endpoint. */
export const OAUTH_ERROR_EXAMPLES: Record<'400' | '401', Record<string, Example>> = {
  '400': {
    invalid_grant: { summary: 'A code that is unknown, expired, used, or issued for another client, redirect URI or verifier', value: { error: 'invalid_grant', error_description: 'the code has expired' } },
    unsupported_grant_type: { summary: 'A grant type other than authorization_code', value: { error: 'unsupported_grant_type', error_description: 'only authorization_code is supported' } },
  },
  '401': {
    invalid_client: { summary: 'Unknown client or wrong client secret', value: { error: 'invalid_client', error_description: 'client authentication failed' } },
  },
};

/** The authorization endpoint's errors that are answered, not redirected (RFC 6749 §4.1.2.1). */
export const AUTHORIZE_BAD_REQUEST_EXAMPLE: Example = {
  summary: 'A redirect URI not registered for the client: answered here, never redirected',
  value: problem(400, 'invalid_redirect_uri', 'redirect_uri is not registered for this client.'),
};

export const AUTHORIZE_DEFAULT_EXAMPLE: Example = {
  summary: 'A consent body that is neither a form nor JSON',
  value: problem(415, 'unsupported_media_type', 'Send the body as application/json.'),
};

/**
 * A valid request body per operation. The sandbox replaces the login example with the target's test account.
 */
export const REQUEST_EXAMPLES: Partial<Record<Operation, unknown>> = {
  sendMessage: { to: '14155550123', type: 'text', text: { body: 'Hello from the sandbox' } },
  sandboxInbound: { from: '14155550123', text: 'Hello, a received message' },
  login: { email: 'user@example.com', password: 'correct horse battery staple' },
  createCampaign: { name: 'Spring news', subject: 'What is new', content: '<p>Hello</p>', recipients: ['ada@example.com'] },
  createWebhook: { url: 'https://hooks.example.com/messages', events: ['message.received', 'message.status'] },
  oauthToken: {
    grant_type: 'authorization_code',
    code: 'SplxlOBeZQQYbYS6WxSbIA',
    client_id: 'client_3fK9xQ2m',
    redirect_uri: 'http://127.0.0.1/callback',
    code_verifier: 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk',
  },
};

/** The consent POST's body: the user's decision on the authorization request (RFC 6749 §4.1.1). */
export const AUTHORIZE_EXAMPLE = {
  response_type: 'code',
  client_id: 'client_3fK9xQ2m',
  redirect_uri: 'http://127.0.0.1/callback',
  scope: 'messages:send messages:read',
  state: 'af0ifjsldkj',
  code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
  code_challenge_method: 'S256',
  decision: 'approve',
};

/** A body per webhook event type (`webhooks:`), as the service POSTs it. */
export const WEBHOOK_EXAMPLES: Record<string, unknown> = {
  'message.received': {
    id: 'evt_01J9ZK3V7Q8X2M4N6P8R0T2V4X',
    type: 'message.received',
    created_at: '2026-03-14T09:26:53Z',
    data: { id: 'msg_01J9ZK3V5A7C9E1G3J5L7N9Q1S', from: '14155550123', text: 'Hello, a received message', timestamp: '2026-03-14T09:26:53Z' },
  },
  'message.status': {
    id: 'evt_01J9ZK4B2D4F6H8K0M2P4R6T8V',
    type: 'message.status',
    created_at: '2026-03-14T09:26:55Z',
    data: { id: 'msg_01J9ZK3V5A7C9E1G3J5L7N9Q1S', status: 'delivered', timestamp: '2026-03-14T09:26:55Z' },
  },
};
