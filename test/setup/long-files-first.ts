/**
 * vitest sequencer: the files that take longest start first, so they are not the tail of the run, and files that
 * mostly wait (rate-limit windows, webhook retries, whole conformance runs against slow targets) start beside files
 * that compute, not beside each other: six waiting files at once left the two cores idle for seconds. vitest hands
 * files to its workers in this order as they free up, so the order is that of a simulated run on the configured
 * workers and this machine's cores. long-files.json holds each long file's wall and CPU seconds from a whole run
 * (refresh it with `node test/setup/long-files-refresh.mjs` after a whole `npm test`); files without a record keep
 * vitest's own order after the long ones.
 */
import { readFileSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

export interface FileTiming {
  /** Wall seconds of the file in a whole run. */
  wall: number;
  /** CPU seconds of its worker and child processes in that run. */
  cpu: number;
}

/** A file that uses less than this share of a core over its wall time mostly waits. */
export const WAITING_SHARE = 0.3;

/**
 * The order in which `files` (names with a timing) should start on `workers` workers sharing `cores` cores: each
 * time a worker frees up in the simulated run, the longest file left of the kind the cores need — a computing one
 * while the running files leave a core's worth idle, else a waiting one — or the longest left when none of that
 * kind is.
 */
export function scheduleOrder(timings: Readonly<Record<string, FileTiming>>, workers: number, cores: number): string[] {
  const left = Object.keys(timings).sort((a, b) => timings[b]!.wall - timings[a]!.wall);
  const share = (name: string) => Math.min(1, timings[name]!.cpu / Math.max(timings[name]!.wall, 1));
  const running: Array<{ name: string; end: number }> = [];
  const order: string[] = [];
  let now = 0;
  while (left.length > 0) {
    if (running.length === workers) {
      running.sort((a, b) => a.end - b.end);
      now = running.shift()!.end;
    }
    const demand = running.reduce((sum, r) => sum + share(r.name), 0);
    const wantComputing = demand <= cores - 1;
    const index = left.findIndex((name) => (share(name) >= WAITING_SHARE) === wantComputing);
    const [name] = left.splice(index === -1 ? 0 : index, 1) as [string];
    order.push(name);
    running.push({ name, end: now + timings[name]!.wall });
  }
  return order;
}

const TIMINGS: Record<string, FileTiming> = JSON.parse(readFileSync(new URL('./long-files.json', import.meta.url), 'utf8'));

export default class LongFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    // This run's timings (test/setup/file-timing.ts) start from an empty file.
    rmSync(new URL('../../test-output/file-timings.jsonl', import.meta.url), { force: true });
    const ordered = await super.sort(files);
    const name = (spec: TestSpecification) => relative(this.ctx.config.root, spec.moduleId).split('\\').join('/');
    const present = new Set(ordered.map(name));
    const timings = Object.fromEntries(Object.entries(TIMINGS).filter(([file]) => present.has(file)));
    const workers = typeof this.ctx.config.maxWorkers === 'number' ? this.ctx.config.maxWorkers : 1;
    const rank = new Map(scheduleOrder(timings, workers, availableParallelism()).map((file, i) => [file, i]));
    // Array.prototype.sort is stable: files with no record keep vitest's own order after the long ones.
    return [...ordered].sort((a, b) => (rank.get(name(a)) ?? rank.size) - (rank.get(name(b)) ?? rank.size));
  }
}
