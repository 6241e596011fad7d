/**
 * vitest globalSetup: bundles the CLI once per test run (esbuild, the compiler tsx itself uses, so the code is
 * transformed the same way) and names the bundle in HARNESS_CLI_ENTRY, which bin/harness.js then runs instead of
 * the sources. Hundreds of tests start the CLI as a child process; through tsx each start hooks and transforms
 * every module again, which was most of the CPU such a test used (docs/decisions/2026-11-27-test-suite-speed.md).
 *
 * The bundle holds src/, suites/ and the dependencies in one CommonJS file, run from V8's code cache
 * (cli-bundle-loader.mjs), in test-output/cli-build/<pid>/, a folder of this run's own, removed at its end. From
 * there the package root (src/package-root.ts: the first folder upward with a package.json) is still the checkout,
 * so schemas/, scenarios/ and the HTML client scripts are found as from the sources. The load workers' entry
 * (worker-main.js) sits beside the bundle, where src/load/workers/pool.ts looks for it in a build.
 *
 * HARNESS_TEST_FROM_SOURCES=1 skips the bundle: every child then runs the sources through tsx. Tests that must run
 * bin/harness.js exactly as a user's checkout does set HARNESS_CLI_ENTRY to '' for their child.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runFolder } from './run-folder.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** esbuild as tsx resolves it (a dependency of tsx, not one of ours). */
function esbuild(): typeof import('esbuild') {
  const fromTsx = createRequire(createRequire(import.meta.url).resolve('tsx/package.json'));
  return fromTsx('esbuild') as typeof import('esbuild');
}

/**
 * Bundles the CLI into `outdir`, makes its code cache with one child run, and returns the entry bin/harness.js is
 * to run (cli-bundle-loader.mjs, copied there as main.mjs).
 */
export async function buildCli(outdir: string): Promise<string> {
  const { build } = esbuild();
  // Whitespace and syntax minified (names kept, so stack traces still read): every child reads and checks the whole
  // script, and a smaller one is checked sooner (figures: docs/decisions/2026-11-27-test-suite-parallel.md).
  const common = { absWorkingDir: ROOT, outdir, bundle: true, platform: 'node', target: 'node20', logLevel: 'error', minifyWhitespace: true, minifySyntax: true } as const;
  const [cli] = await Promise.all([
    // The CLI with its dependencies in one CommonJS file: V8 caches the code of a script, not of ES modules, on
    // Node 20. `import.meta.url` is the bundle's own URL, as it is for every module of an ES bundle.
    build({
      ...common,
      entryPoints: { main: 'src/cli/main.ts' },
      format: 'cjs',
      write: false,
      define: { 'import.meta.url': '__bundle_url' },
      banner: { js: "const __bundle_url = require('node:url').pathToFileURL(__filename).href;" },
    }),
    // The load workers' entry stays an ES module (src/load/workers/pool.ts starts worker-main.js beside the bundle).
    build({ ...common, entryPoints: { 'worker-main': 'src/load/workers/worker-main.ts' }, format: 'esm', packages: 'external' }),
  ]);
  // Written as the function the loader calls (CommonJS's own wrapper), in ASCII only: the loader reads it as Latin-1
  // into a one-byte string with no copy to join. esbuild keeps some comments, and regular expressions, with
  // characters past ASCII; a \u escape means the same there (and is only text in a comment).
  const code = cli.outputFiles[0]!.text.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  writeFileSync(join(outdir, 'main.script.js'), `(function (exports, require, module, __filename, __dirname) {${code}\n})`, 'latin1');
  const entry = join(outdir, 'main.mjs');
  copyFileSync(join(ROOT, 'test', 'setup', 'cli-bundle-loader.mjs'), entry);
  // One short run (a closed loopback port: exit 3 at the preflight) compiles what every command starts with.
  const warm = spawnSync(process.execPath, [join(ROOT, 'bin', 'harness.js'), 'run', '--no-load', '--quiet', '--target', 'http://127.0.0.1:1', '--out', join(outdir, 'warm')], {
    cwd: ROOT,
    env: { ...process.env, HARNESS_CLI_ENTRY: entry, HARNESS_CLI_MAKE_CACHE: '1' },
    timeout: 60_000,
    encoding: 'utf8',
  });
  // Without the cache every child compiles the script, as it would from the sources: slower, never wrong.
  if (!existsSync(join(outdir, 'main.script.js.cache'))) console.warn(`test CLI bundle: no code cache, children compile the CLI (warm-up run: exit ${warm.status}, ${warm.error?.message ?? warm.stderr.trim().slice(0, 300)})`);
  return entry;
}

export default async function setup(): Promise<(() => void) | undefined> {
  if (process.env.HARNESS_TEST_FROM_SOURCES === '1') {
    delete process.env.HARNESS_CLI_ENTRY;
    return undefined;
  }
  const outdir = runFolder(join(ROOT, 'test-output', 'cli-build'));
  process.env.HARNESS_CLI_ENTRY = await buildCli(outdir);
  return () => rmSync(outdir, { recursive: true, force: true });
}
