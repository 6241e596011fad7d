/**
 * `harness run --har FILE`: the checks' traffic as an HTTP Archive (HAR 1.2), for browser dev tools, proxies
 * and replay tools. Every exchange goes through the evidence's redaction (evidence.ts redactExchange: known secrets,
 * credential headers, secret-named fields; bodies cut at 4 KiB) before it is written, like everything else.
 * What the harness does not measure is not invented: only the total time of an exchange is known, so it is
 * written as `wait` (send and receive 0) and each entry says so; HTTP version and header sizes are unknown (-1).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { redactExchange } from '../conformance/evidence.ts';
import type { TaggedExchange } from '../conformance/traffic.ts';
import { EVIDENCE_BODY_LIMIT, type Exchange } from '../http/exchange.ts';
import { REDACTED, type SecretRegistry } from '../http/redact.ts';
import { HARNESS_VERSION } from '../version.ts';

type NameValue = { name: string; value: string };

const nameValues = (headers: Record<string, string>): NameValue[] => Object.entries(headers).map(([name, value]) => ({ name, value }));

function queryString(url: string): NameValue[] {
  try {
    return [...new URL(url).searchParams].map(([name, value]) => ({ name, value }));
  } catch {
    return [];
  }
}

const header = (headers: Record<string, string>, name: string): string | undefined =>
  Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];

/** `exchange` is redacted; sizes are the raw exchange's (`raw`), the bytes that really went over the wire. */
function entryOf(checkId: string, raw: Exchange, exchange: Exchange): Record<string, unknown> {
  const { request, response } = exchange;
  const cut = (body: string | undefined): boolean => body !== undefined && body.length > EVIDENCE_BODY_LIMIT;
  const notes = [`check ${checkId}`, 'only the total time was measured (given as wait)'];
  if (exchange.error) notes.push(`transport error, no HTTP response: ${exchange.error}`);
  if (cut(request.body) || cut(response?.body)) notes.push(`bodies cut at ${EVIDENCE_BODY_LIMIT} characters`);
  return {
    startedDateTime: exchange.startedAt,
    time: exchange.durationMs,
    request: {
      method: request.method,
      url: request.url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: nameValues(request.headers),
      queryString: queryString(request.url),
      ...(request.body !== undefined ? { postData: { mimeType: header(request.headers, 'content-type') ?? '', text: request.body } } : {}),
      headersSize: -1,
      bodySize: raw.request.body !== undefined ? Buffer.byteLength(raw.request.body) : 0,
    },
    response: response
      ? {
          status: response.status,
          statusText: '',
          httpVersion: 'HTTP/1.1',
          cookies: [],
          headers: nameValues(response.headers),
          content: { size: Buffer.byteLength(raw.response?.body ?? ''), mimeType: header(response.headers, 'content-type') ?? '', text: response.body },
          redirectURL: header(response.headers, 'location') ?? '',
          headersSize: -1,
          bodySize: -1,
        }
      : // No response: status 0, as browsers write a request that failed in transport.
        { status: 0, statusText: '', httpVersion: '', cookies: [], headers: [], content: { size: 0, mimeType: '' }, redirectURL: '', headersSize: -1, bodySize: -1 },
    cache: {},
    timings: { send: 0, wait: exchange.durationMs, receive: 0 },
    comment: notes.join('; '),
  };
}

/** The HAR document of `traffic`, redacted; `total` is how many exchanges the run made (kept or not). */
export function buildHar(traffic: readonly TaggedExchange[], secrets: SecretRegistry, total = traffic.length): Record<string, unknown> {
  const entries = traffic.map(({ checkId, exchange }) => {
    const { curl: _curl, ...redacted } = redactExchange(exchange, secrets);
    // "[REDACTED]" is not allowed in a URL as it stands (RFC 3986): written percent-encoded.
    return entryOf(checkId, exchange, { ...redacted, request: { ...redacted.request, url: redacted.request.url.replaceAll(REDACTED, encodeURIComponent(REDACTED)) } });
  });
  return {
    log: {
      version: '1.2',
      creator: { name: 'api-conformance-harness', version: HARNESS_VERSION },
      entries,
      comment:
        total > traffic.length
          ? `the first ${traffic.length} of the ${total} exchanges the conformance checks made; secrets redacted (sizes are those of the unredacted bytes)`
          : `every exchange the conformance checks made (${total}); secrets redacted (sizes are those of the unredacted bytes); throughput scenarios are not recorded`,
    },
  };
}

export async function writeHar(file: string, traffic: readonly TaggedExchange[], secrets: SecretRegistry, total: number): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify(buildHar(traffic, secrets, total), null, 2)}\n`);
}
