/**
 * The evidence excerpt inside a JUnit <failure>: the message, the spec reference and each exchange as
 * `METHOD url → status` with the response body cut short. CI pages show this text, so it stays small; the full
 * evidence is in report.json and report.html.
 */
import type { CheckResult } from '../../conformance/result.ts';

/** Longest response body kept per exchange in the excerpt. */
export const EXCERPT_BODY_LIMIT = 1000;
/** At most this many exchanges are listed (a check may make dozens). */
export const EXCERPT_EXCHANGES = 5;

export function evidenceExcerpt(check: CheckResult): string {
  const lines: string[] = [];
  if (check.message) lines.push(check.message);
  lines.push(`level: ${check.level}; spec: ${check.specRef}`);
  const exchanges = check.evidence?.exchanges ?? [];
  for (const ex of exchanges.slice(0, EXCERPT_EXCHANGES)) {
    const outcome = ex.response ? String(ex.response.status) : `no response (${ex.error ?? 'unknown error'})`;
    lines.push('', `${ex.request.method} ${ex.request.url} → ${outcome}`);
    if (ex.response?.body) lines.push(cut(ex.response.body, EXCERPT_BODY_LIMIT));
  }
  if (exchanges.length > EXCERPT_EXCHANGES) lines.push('', `… ${exchanges.length - EXCERPT_EXCHANGES} more exchanges in report.json`);
  return lines.join('\n');
}

export function cut(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit)}… [${text.length - limit} more characters cut]`;
}
