/**
 * The entry HARNESS_CLI_ENTRY names in a test run (copied beside the bundle as main.mjs by test/setup/cli-build.ts):
 * runs main.script.js, the CLI and its dependencies in one CommonJS file (written in ASCII, as the function
 * CommonJS wraps a module in), through V8's code cache (main.script.js.cache, made once per test run). Node 20
 * keeps no code cache for ES modules, so every child compiled the whole CLI again; from the cache a child only
 * checks it. A cache V8 rejects (another V8 version or flags) costs nothing but that check: the source is
 * compiled as usual.
 *
 * HARNESS_CLI_MAKE_CACHE=1 (set by cli-build.ts for one child only) writes the cache when the child ends, so it
 * holds every function that child compiled.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

const file = fileURLToPath(new URL('./main.script.js', import.meta.url));
const cacheFile = `${file}.cache`;
const script = new vm.Script(readFileSync(file, 'latin1'), {
  filename: file,
  cachedData: existsSync(cacheFile) ? readFileSync(cacheFile) : undefined,
});
const module = { exports: {} };
script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file));
if (process.env.HARNESS_CLI_MAKE_CACHE === '1') {
  process.once('exit', () => {
    writeFileSync(`${cacheFile}.tmp`, script.createCachedData());
    renameSync(`${cacheFile}.tmp`, cacheFile);
  });
}

export const main = module.exports.main;
