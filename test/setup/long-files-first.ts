/**
 * vitest sequencer: the files that take longest start first. Most of them wait on real clocks (rate-limit
 * windows, whole conformance runs), so started early they wait beside the CPU-bound files instead of after them;
 * started last they would be the tail of the run. vitest orders by the durations it cached on this machine, and on
 * a fresh clone (CI) by file size, which put the split wall-bound files last. long-files.json holds each long file's
 * wall seconds from a whole run; refresh it with `node test/setup/long-files-refresh.mjs` after a whole `npm test`.
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const LONG: Record<string, number> = JSON.parse(readFileSync(new URL('./long-files.json', import.meta.url), 'utf8'));

export default class LongFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const ordered = await super.sort(files);
    const seconds = (spec: TestSpecification) => LONG[relative(this.ctx.config.root, spec.moduleId).split('\\').join('/')] ?? 0;
    // Array.prototype.sort is stable: files with no record keep vitest's own order after the long ones.
    return [...ordered].sort((a, b) => seconds(b) - seconds(a));
  }
}
