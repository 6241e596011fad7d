import { describe, expect, it } from 'vitest';
import { compareListed, firstOutOfOrder, timeKey, withinCommonRange } from '../../../../suites/pagination/lib/list-order.ts';

const item = (id: string, timestamp: string) => ({ id, timestamp });

describe('list order', () => {
  it('keeps sub-millisecond digits when comparing timestamps', () => {
    expect(timeKey('2025-01-01T00:00:00.000100Z')).toBeCloseTo(timeKey('2025-01-01T00:00:00.0001Z'), 9);
    expect(timeKey('2025-01-01T00:00:00.000200Z')).toBeGreaterThan(timeKey('2025-01-01T00:00:00.000100Z'));
    expect(timeKey('2025-01-01T00:00:01Z') - timeKey('2025-01-01T00:00:00.5Z')).toBe(500);
    expect(timeKey('not a date')).toBeNaN();
  });

  it('orders newest first by (timestamp, id) descending, and oldest first ascending', () => {
    const a = item('msg_a', '2025-01-01T00:00:00.000Z');
    const b = item('msg_b', '2025-01-01T00:00:00.000Z');
    const c = item('msg_c', '2025-01-01T00:00:01.000Z');
    expect(firstOutOfOrder('newest-first', [c, b, a])).toBeUndefined();
    expect(firstOutOfOrder('oldest-first', [a, b, c])).toBeUndefined();
    expect(firstOutOfOrder('newest-first', [c, a, b])).toMatchObject({ index: 2 });
    expect(compareListed('newest-first', b, a)).toBeLessThan(0);
    // An item twice in a row is not "strictly in order".
    expect(firstOutOfOrder('newest-first', [c, c])).toMatchObject({ index: 1 });
  });

  it('compares two cut walks over the range both cover', () => {
    const t = (s: number) => `2025-01-01T00:00:${String(s).padStart(2, '0')}.000Z`;
    const walkA = [item('5', t(5)), item('4', t(4)), item('3', t(3))];
    const walkB = [item('6', t(6)), item('5', t(5)), item('4', t(4)), item('3', t(3)), item('2', t(2))];
    const [a, b] = withinCommonRange(walkA, walkB);
    expect(a.map((i) => i.id)).toEqual(['5', '4', '3']);
    expect(b.map((i) => i.id)).toEqual(['5', '4', '3']);
    expect(withinCommonRange([], walkB)).toEqual([[], []]);
  });
});
