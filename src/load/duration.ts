/**
 * k6 durations: `500ms`, `30s`, `1m30s`, `2h`, `1.5s` (units ms, s, m, h, combinable from largest to smallest).
 * A bare number is seconds, as k6 accepts it in options too.
 */
const PART = /(\d+(?:\.\d+)?)(ms|s|m|h)/gy;
const FACTOR: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
const ORDER = ['h', 'm', 's', 'ms'];

/** Milliseconds, or undefined when `text` is not a duration. */
export function parseDuration(text: string | number): number | undefined {
  if (typeof text === 'number') return Number.isFinite(text) && text >= 0 ? text * 1000 : undefined;
  const trimmed = text.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed) * 1000;
  PART.lastIndex = 0;
  let total = 0;
  let last = -1;
  let consumed = 0;
  for (let match = PART.exec(trimmed); match; match = PART.exec(trimmed)) {
    const unit = match[2] as string;
    const rank = ORDER.indexOf(unit);
    if (rank <= last) return undefined;
    last = rank;
    total += Number(match[1]) * (FACTOR[unit] as number);
    consumed = PART.lastIndex;
  }
  return consumed === trimmed.length && consumed > 0 ? total : undefined;
}

/** ms → the shortest k6 duration text (`90000` → `1m30s`). */
export function formatDuration(ms: number): string {
  if (ms === 0) return '0s';
  let rest = Math.round(ms);
  let out = '';
  for (const unit of ['h', 'm', 's'] as const) {
    const size = FACTOR[unit] as number;
    const n = Math.floor(rest / size);
    if (n > 0) {
      out += `${n}${unit}`;
      rest -= n * size;
    }
  }
  if (rest > 0) out += `${rest}ms`;
  return out;
}
