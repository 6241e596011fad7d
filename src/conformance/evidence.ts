/**
 * A check's evidence: its last exchanges, redacted (known secrets, in every encoding) and cut, with a curl
 * command each; the same redaction serves the HAR file (src/job/har.ts).
 */
import { curlCommand } from '../http/curl.ts';
import { copyPrefix, cutBody, EVIDENCE_BODY_LIMIT, type Exchange } from '../http/exchange.ts';
import type { SecretRegistry } from '../http/redact.ts';
import type { Evidence } from './result.ts';
import { cutDeep } from '../util/deep-json.ts';

/** Exchanges kept per failing check: the last ones are the ones that show the failure. */
const MAX_EVIDENCE_EXCHANGES = 12;

/**
 * Redacts and cuts the exchanges; secrets the check registered while running are known by now. Details holding a
 * target's JSON nested deeper than a report keeps are cut there, with a note naming the depth.
 */
export function evidenceOf(exchanges: readonly Exchange[], secrets: SecretRegistry, details?: Record<string, unknown>): Evidence {
  const kept = exchanges.slice(-MAX_EVIDENCE_EXCHANGES).map((exchange) => redactExchange(exchange, secrets));
  return { exchanges: kept, ...(details ? { details: secrets.redactValue(cutDeep(details) as Record<string, unknown>) } : {}) };
}

export function redactExchange(exchange: Exchange, secrets: SecretRegistry): Exchange {
  const { request, response } = exchange;
  return {
    startedAt: exchange.startedAt,
    durationMs: exchange.durationMs,
    request: {
      method: request.method,
      url: secrets.redactUrl(request.url),
      headers: secrets.redactHeaders(request.headers),
      ...(request.body !== undefined ? { body: evidenceBody(request.body, secrets) } : {}),
    },
    ...(response
      ? { response: { status: response.status, headers: secrets.redactHeaders(response.headers), body: evidenceBody(response.body, secrets, response.truncatedFrom) } }
      : {}),
    ...(exchange.error ? { error: secrets.redactText(exchange.error) } : {}),
    curl: curlCommand(request, secrets),
  };
}

/**
 * Bodies longer than this are cut to a window before they are redacted: redacting a large body whole (JSON walk,
 * every net) makes several full-size copies per exchange for a result that shows 4 KiB of it. Below it, a JSON
 * body is walked whole, so a secret-named property anywhere in an ordinary answer is found by name.
 */
const REDACT_WHOLE_CHARS = 64 * 1024;
/** What the window holds past the evidence limit: any encoded secret straddling the limit lies whole inside it. */
const REDACT_MARGIN = 8 * 1024;

/** A body as evidence: redacted, then cut to EVIDENCE_BODY_LIMIT (a copy: never a view pinning the original). */
function evidenceBody(body: string, secrets: SecretRegistry, truncatedFrom?: number): string {
  if (body.length <= REDACT_WHOLE_CHARS) return cutBody(secrets.redactBody(body), undefined, truncatedFrom);
  const redacted = secrets.redactText(copyPrefix(body, EVIDENCE_BODY_LIMIT + REDACT_MARGIN));
  // The window's last characters may hold the front half of a secret its end cut through: never shown.
  const shown = copyPrefix(redacted, Math.max(0, Math.min(EVIDENCE_BODY_LIMIT, redacted.length - REDACT_MARGIN)));
  const note = truncatedFrom !== undefined ? `; ${truncatedFrom} bytes received in all, only the first ones were kept` : '';
  return `${shown}… [${body.length - EVIDENCE_BODY_LIMIT} more characters cut${note}]`;
}
