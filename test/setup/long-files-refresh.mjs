// Rewrites long-files.json from the last whole `npm test` (test-output/vitest-results.json): every file that took
// 15 s or more, longest first, in wall seconds.
import { readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';

const root = new URL('../../', import.meta.url).pathname;
// The JSON's start and end times leave out a file's beforeAll: these files spend about half their time there
// (npm pack and install), so their whole wall time from the console's line is kept as a floor.
const FLOORS = { 'test/integration/package/package.test.ts': 120 };
const results = JSON.parse(readFileSync(new URL('../../test-output/vitest-results.json', import.meta.url), 'utf8'));
const long = results.testResults
  .map((t) => [relative(root, t.name), Math.max(FLOORS[relative(root, t.name)] ?? 0, Math.round((t.endTime - t.startTime) / 1000))])
  .filter(([, seconds]) => seconds >= 15)
  .sort((a, b) => b[1] - a[1]);
writeFileSync(new URL('./long-files.json', import.meta.url), `${JSON.stringify(Object.fromEntries(long), null, 2)}\n`);
console.log(`long-files.json: ${long.length} files of 15 s or more`);
