// Rewrites long-files.json from the last whole `npm test` (test-output/file-timings.jsonl, written by
// file-timing.ts): every file that took 2 s or more, longest first, with its wall and CPU seconds.
import { readFileSync, writeFileSync } from 'node:fs';

const timings = readFileSync(new URL('../../test-output/file-timings.jsonl', import.meta.url), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line));
const long = timings
  .filter((t) => t.wall >= 2)
  .sort((a, b) => b.wall - a.wall)
  .map((t) => [t.file, { wall: Math.round(t.wall), cpu: t.cpu }]);
writeFileSync(new URL('./long-files.json', import.meta.url), `${JSON.stringify(Object.fromEntries(long), null, 2)}\n`);
console.log(`long-files.json: ${long.length} files of 2 s or more`);
