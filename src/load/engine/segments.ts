/**
 * How W workers share one scenario, as k6's execution segments do: VUs and connections are divided, never
 * multiplied (worker i of W gets floor((i+1)·n/W) − floor(i·n/W), so the shares add up to n exactly), and the
 * open model's arrivals are dealt out in turn — worker i takes arrivals i, i+W, i+2W … of the one schedule — so
 * the merged stream is the single-worker schedule, evenly spaced, with no worker bursting.
 */
import type { ArrivalSchedule } from '../pacer/arrival-schedule.ts';

export interface Slice {
  index: number;
  count: number;
}

export function share(total: number, slice: Slice): number {
  return Math.floor(((slice.index + 1) * total) / slice.count) - Math.floor((slice.index * total) / slice.count);
}

/** Worker `slice.index`'s arrivals of `schedule`: arrival k of the slice is arrival index + k·count of the whole. */
export function interleave(schedule: ArrivalSchedule, slice: Slice): ArrivalSchedule {
  if (slice.count <= 1) return schedule;
  const total = Math.max(0, Math.ceil((schedule.total - slice.index) / slice.count));
  return {
    durationMs: schedule.durationMs,
    total,
    timeOf: (k) => (k < 0 || k >= total ? undefined : schedule.timeOf(slice.index + k * slice.count)),
  };
}
