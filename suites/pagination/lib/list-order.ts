/**
 * The documented list order (PROFILE Messages: by (timestamp, id), newest first unless
 * api.pagination.order says oldest-first), as a comparator over listed items.
 */
import type { ListedItem } from './list-walk.ts';

export type ListOrder = 'newest-first' | 'oldest-first';

/**
 * Milliseconds since the epoch with the sub-millisecond digits kept as a fraction, so two timestamps of the
 * same millisecond but different microseconds still compare. NaN when the text is not a date-time.
 */
export function timeKey(timestamp: string): number {
  const match = /^(.*T\d{2}:\d{2}:\d{2})(\.\d+)?(.*)$/.exec(timestamp);
  if (!match) return Number.NaN;
  const whole = Date.parse(`${match[1]}${match[3]}`);
  const fraction = match[2] ? Number(`0${match[2]}`) * 1000 : 0;
  return whole + fraction;
}

/** Ascending (timestamp, id): negative when a is older. Ids compare as strings (code units). */
export function compareAscending(a: ListedItem, b: ListedItem): number {
  const ta = timeKey(a.timestamp);
  const tb = timeKey(b.timestamp);
  if (ta !== tb) return ta - tb;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Negative when a must be listed before b in the documented order. */
export function compareListed(order: ListOrder, a: ListedItem, b: ListedItem): number {
  return order === 'newest-first' ? compareAscending(b, a) : compareAscending(a, b);
}

/** The first pair (by position) that is not strictly in the documented order, or undefined. */
export function firstOutOfOrder(order: ListOrder, items: readonly ListedItem[]): { index: number; before: ListedItem; after: ListedItem } | undefined {
  for (let i = 1; i < items.length; i++) {
    const before = items[i - 1]!;
    const after = items[i]!;
    if (!(compareListed(order, before, after) < 0)) return { index: i, before, after };
  }
  return undefined;
}

/** Items in the key range both lists cover (for comparing read-only walks that may be cut at different points). */
export function withinCommonRange(a: readonly ListedItem[], b: readonly ListedItem[]): [ListedItem[], ListedItem[]] {
  if (a.length === 0 || b.length === 0) return [[], []];
  const range = (items: readonly ListedItem[]) => {
    const sorted = [...items].sort(compareAscending);
    return [sorted[0]!, sorted[sorted.length - 1]!] as const;
  };
  const [aLow, aHigh] = range(a);
  const [bLow, bHigh] = range(b);
  const low = compareAscending(aLow, bLow) >= 0 ? aLow : bLow;
  const high = compareAscending(aHigh, bHigh) <= 0 ? aHigh : bHigh;
  const inside = (item: ListedItem) => compareAscending(item, low) >= 0 && compareAscending(item, high) <= 0;
  return [a.filter(inside), b.filter(inside)];
}
