/**
 * HEAD on the paths that serve GET. RFC 9110 §9.3.2: HEAD is GET without content, and the server SHOULD send the
 * header fields it would send for GET; §9.1 asks every general-purpose server to support it. SHOULD level: the
 * spec shows only GET for the message list (§4), and HEAD comes from HTTP itself.
 */
import { defineCheck } from '../../src/conformance/check.ts';
import { fail } from '../../src/conformance/outcomes.ts';
import { requiresCredential } from '../../src/conformance/preconditions.ts';
import { mediaType } from './lib/requests.ts';

export const headOnGetPaths = requiresCredential('apiKey')(
  defineCheck({
    id: 'errors.head.get-paths',
    suite: 'errors',
    title: 'HEAD on the message list answers like GET: the same status and Content-Type, and no body',
    level: 'SHOULD',
    specRef: 'RFC 9110 §9.3.2 (HEAD: identical to GET but without content; the same header fields SHOULD be sent), §9.1',
    clauses: ['§4.list'],
    async run(ctx) {
      const request = { path: ctx.path('listMessages'), bearer: ctx.credentials.apiKey! };
      const get = await ctx.http.request({ method: 'GET', ...request });
      const head = await ctx.http.request({ method: 'HEAD', ...request });
      const problems: string[] = [];
      if (head.status !== get.status) problems.push(`HEAD answered ${head.status}, GET ${get.status}`);
      if (head.text.length > 0) problems.push(`HEAD answered with ${head.text.length} characters of content`);
      if (head.status === get.status && mediaType(head) !== mediaType(get)) {
        problems.push(`HEAD says Content-Type ${JSON.stringify(head.header('content-type') ?? null)}, GET ${JSON.stringify(get.header('content-type') ?? null)}`);
      }
      if (problems.length > 0) fail(`HEAD on ${request.path} does not answer like GET: ${problems.join('; ')}`, { expected: { status: get.status, contentType: get.header('content-type') ?? null, body: '' }, actual: { status: head.status, contentType: head.header('content-type') ?? null, bodyLength: head.text.length } });
    },
  }),
);
