/**
 * vitest sequencer: the files that take longest start first, so they are not the tail of the run, and files that
 * mostly wait (rate-limit windows, webhook retries, whole conformance runs against slow targets) start beside files
 * that compute, not beside each other: five or six waiting files at once left the two cores idle for seconds. vitest
 * hands files to its workers in this order as they free up, so the order is that of a simulated run on the
 * configured workers. long-files.json holds the wall and CPU seconds of every file of 2 s or more from a whole run
 * (refresh it with `node test/setup/long-files-refresh.mjs` after a whole `npm test`); files without a record keep
 * vitest's own order after the others.
 */
import { readFileSync, rmSync } from 'node:fs';
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
 * The order in which the files of `timings` should start on `workers` workers. Waiting files hold their workers
 * for their wall time whatever the cores do; computing files need the cores. So a share of the workers goes to
 * waiting files, in proportion to their wall time (at most all workers but one): each time a worker frees up in the
 * simulated run, it takes the longest waiting file left while fewer than that share run, else the longest computing
 * file left, or the longest file left when none of that kind is. Longest first within each kind, so that no long
 * file becomes the run's tail.
 */
export function scheduleOrder(timings: Readonly<Record<string, FileTiming>>, workers: number): string[] {
  const byWall = Object.keys(timings).sort((a, b) => timings[b]!.wall - timings[a]!.wall);
  const waits = (name: string) => timings[name]!.cpu < WAITING_SHARE * timings[name]!.wall;
  const wall = (names: string[]) => names.reduce((sum, name) => sum + timings[name]!.wall, 0);
  const waiting = byWall.filter(waits);
  const computing = byWall.filter((name) => !waits(name));
  const waitingWorkers = Math.min(workers - 1, Math.round((workers * wall(waiting)) / Math.max(wall(byWall), 1)));
  const running: Array<{ name: string; end: number }> = [];
  const order: string[] = [];
  let now = 0;
  while (waiting.length + computing.length > 0) {
    if (running.length === workers) {
      running.sort((a, b) => a.end - b.end);
      now = running.shift()!.end;
    }
    const waitingNow = running.filter((r) => waits(r.name)).length;
    const preferred = waitingNow < waitingWorkers ? waiting : computing;
    const other = preferred === waiting ? computing : waiting;
    const name = (preferred.length > 0 ? preferred : other).shift()!;
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
    const rank = new Map(scheduleOrder(timings, workers).map((file, i) => [file, i]));
    // Array.prototype.sort is stable: files with no record keep vitest's own order after the long ones.
    return [...ordered].sort((a, b) => (rank.get(name(a)) ?? rank.size) - (rank.get(name(b)) ?? rank.size));
  }
}
