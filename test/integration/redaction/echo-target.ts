/**
 * A hostile target for the secret-corpus test: whatever it is asked, it answers with every configured secret in
 * every encoding a target could use — in response headers, in a JSON body, in a `Location` (query, fragment and
 * userinfo), as an HTTP Basic credential and inside a JWT-like payload. Secrets shorter than the redactor's
 * "anywhere" length are echoed only in credential positions (whole values, Basic, userinfo, JWT claims), the
 * positions the redactor promises to cover for them (docs/decisions/2026-11-21-redaction.md).
 */
import { createServer, type Server } from 'node:http';
import { listenOnLoopback } from '../../helpers/listen-loopback.ts';
import { encodingsOf } from '../../helpers/secret-encodings.ts';

export interface EchoTarget {
  url: string;
  requests: () => number;
  close: () => Promise<void>;
}

const HEADER_SAFE = /^[\x21-\x7e]+$/;

export async function startEchoTarget(longSecrets: readonly string[], shortSecrets: readonly string[]): Promise<EchoTarget> {
  // The answer does not depend on the request: built once, sent to every request.
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const body: Record<string, unknown> = {};
  const query: string[] = [];
  let h = 0;
  for (const secret of longSecrets) {
    for (const [name, encoded] of Object.entries(encodingsOf(secret))) {
      body[`echo ${name} ${h}`] = encoded;
      body[`text ${name} ${h}`] = `the target says: ${encoded} (echoed)`;
      if (HEADER_SAFE.test(encoded.replace(/ /g, '_'))) headers[`x-echo-${h}`] = `v=${encoded}`;
      if (!/[#&\s]/.test(encoded)) query.push(`e${h}=${encoded}`);
      h += 1;
    }
  }
  const shortBlobs: string[] = [];
  for (const secret of shortSecrets) {
    headers[`x-echo-${h++}`] = encodeURIComponent(secret);
    body[`whole ${h}`] = secret;
    body[`basic ${h}`] = `Basic ${Buffer.from(`alice:${secret}`).toString('base64')}`;
    body[`jwt ${h}`] = `eyJhbGciOiJIUzI1NiJ9.${Buffer.from(JSON.stringify({ sub: 'alice', pwd: secret })).toString('base64url')}.c2ln`;
    shortBlobs.push(`alice:${encodeURIComponent(secret)}@`);
    query.push(`p${h}=${new URLSearchParams({ v: secret }).toString().slice(2)}`);
  }
  const [first] = longSecrets;
  const userinfo = first ? `alice:${encodeURIComponent(first)}@` : (shortBlobs[0] ?? '');
  headers.location = `http://${userinfo}127.0.0.1/cb?${query.join('&')}#access_token=${encodeURIComponent(first ?? 'x')}`;
  headers['www-authenticate'] = `Basic ${Buffer.from(`alice:${first ?? ''}`).toString('base64')}`;
  body.links = shortBlobs.map((u) => `http://${u}127.0.0.1/x`);
  const payload = JSON.stringify(body);
  let count = 0;
  const server: Server = createServer((req, res) => {
    count += 1;
    req.resume();
    req.on('end', () => {
      res.writeHead(200, headers);
      res.end(payload);
    });
  });
  return {
    url: await listenOnLoopback(server),
    requests: () => count,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
