/**
 * vitest sequencer: the files that take longest start first. Most of them wait on real clocks (rate-limit
 * windows, whole conformance runs), so started early they wait beside the CPU-bound files instead of after them;
 * started last they would be the tail of the run. vitest orders by the durations it cached on this machine, and on
 * a fresh clone (CI) by file size, which put the split wall-bound files last. long-files.json holds the wall and CPU
 * seconds of every file of 2 s or more from a whole run (test/setup/file-timing.ts); refresh it with
 * `node test/setup/long-files-refresh.mjs` after a whole `npm test`. The order reads the wall seconds only: an order
 * that also kept waiting files apart (by their CPU) left the cores idler (docs/decisions/2026-11-27-test-suite-parallel.md).
 */
import { readFileSync, rmSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

interface FileTiming {
  /** Wall seconds of the file in a whole run. */
  wall: number;
  /** CPU seconds of its worker and child processes in that run. */
  cpu: number;
}

const TIMINGS: Record<string, FileTiming> = JSON.parse(readFileSync(new URL('./long-files.json', import.meta.url), 'utf8'));

export default class LongFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    // This run's timings (test/setup/file-timing.ts) start from an empty file.
    rmSync(new URL('../../test-output/file-timings.jsonl', import.meta.url), { force: true });
    const ordered = await super.sort(files);
    const seconds = (spec: TestSpecification) => TIMINGS[relative(this.ctx.config.root, spec.moduleId).split('\\').join('/')]?.wall ?? 0;
    // Array.prototype.sort is stable: files with no record keep vitest's own order after the long ones.
    return [...ordered].sort((a, b) => seconds(b) - seconds(a));
  }
}
