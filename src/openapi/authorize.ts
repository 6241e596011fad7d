/**
 * The OAuth2 authorization endpoint (PROFILE.md, RFC 6749 §4.1.1–4.1.2, RFC 7636): GET answers the
 * login-and-consent page, POST records the user's decision and redirects to `redirect_uri` with a code (or an
 * error). Neither has a JSON body, so they are written out here rather than in the operation table.
 */
import { AUTHORIZE_BAD_REQUEST_EXAMPLE, AUTHORIZE_DEFAULT_EXAMPLE, AUTHORIZE_EXAMPLE, type Example } from './examples.ts';

type Obj = Record<string, unknown>;

const QUERY: [string, string, boolean][] = [
  ['response_type', 'Always `code`.', true],
  ['client_id', 'The registered client.', true],
  ['redirect_uri', 'A redirect URI registered for the client.', true],
  ['scope', 'Space-separated scopes.', false],
  ['state', 'Echoed back on the redirect.', false],
  ['code_challenge', 'PKCE code challenge (RFC 7636).', false],
  ['code_challenge_method', 'PKCE method: `S256`.', false],
];

export function authorizeOperations(consentStatus: number, errorMediaType: string, errorSchema: Obj, examples: boolean): Record<'get' | 'post', Obj> {
  const errorContent = (name: string, example: Example) => ({ [errorMediaType]: { schema: errorSchema, ...(examples ? { examples: { [name]: example } } : {}) } });
  const parameters = QUERY.map(([name, description, required]) => ({ name, in: 'query', required, description, schema: { type: 'string' } }));
  const formProperties = Object.fromEntries([...QUERY.map(([name, description]) => [name, { type: 'string', description }]), ['decision', { enum: ['approve', 'deny'] }]]);
  const bad = {
    description: 'An unknown client or a redirect URI not registered for it: answered here, never redirected.',
    content: errorContent('invalid_redirect_uri', AUTHORIZE_BAD_REQUEST_EXAMPLE),
  };
  const form = { schema: { type: 'object', required: ['decision'], properties: formProperties }, example: AUTHORIZE_EXAMPLE };
  return {
    get: {
      operationId: 'oauthAuthorizePage',
      summary: 'The login-and-consent page of the authorization code grant (SERVICE-SPEC §5 rule 3 a–b)',
      tags: ['Authentication'],
      security: [{}],
      parameters,
      responses: {
        '200': { description: 'The login-and-consent page.', content: { 'text/html': { schema: { type: 'string' } } } },
        '302': { description: 'A request error reported to the client by redirect (RFC 6749 §4.1.2.1).', headers: { Location: { schema: { type: 'string', format: 'uri' } } } },
        '400': bad,
      },
    },
    post: {
      operationId: 'oauthAuthorize',
      summary: "The user's decision: redirects to redirect_uri with code and state (SERVICE-SPEC §5 rule 3 c)",
      description: "The user is identified by a Bearer user JWT, or by `email` and `password` in the body.",
      tags: ['Authentication'],
      security: [{ jwt: [] }, {}],
      requestBody: {
        required: true,
        content: {
          'application/x-www-form-urlencoded': form,
          'application/json': form,
        },
      },
      responses: {
        [String(consentStatus)]: {
          description: 'Redirect to `redirect_uri` with `code` and `state`, or with `error=access_denied`.',
          headers: { Location: { schema: { type: 'string', format: 'uri' } } },
        },
        '400': bad,
        '401': { $ref: '#/components/responses/Unauthorized' },
        '429': { $ref: '#/components/responses/TooManyRequests' },
        // The consent POST has no 2xx (its success is the redirect): `default` documents what else it may answer,
        // which is also what OpenAPI's linters ask of an operation without a 2xx.
        default: { description: 'Any other error (e.g. 415 for a body that is neither a form nor JSON), as problem details.', content: errorContent('unsupported_media_type', AUTHORIZE_DEFAULT_EXAMPLE) },
      },
    },
  };
}
