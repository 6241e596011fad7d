/**
 * vitest globalSetup: bundles the CLI once per test run (esbuild, the compiler tsx itself uses, so the code is
 * transformed the same way) and names the bundle in HARNESS_CLI_ENTRY, which bin/harness.js then runs instead of
 * the sources. Hundreds of tests start the CLI as a child process; through tsx each start hooks and transforms
 * every module again, which was most of the CPU such a test used (docs/decisions/2026-11-27-test-suite-speed.md).
 *
 * The bundle holds src/ and suites/ (dependencies stay in node_modules) in test-output/cli-build/<pid>/, a folder
 * of this run's own, removed at its end. From there the package root (src/package-root.ts: the first folder
 * upward with a package.json) is still the checkout, so schemas/, scenarios/ and the HTML client scripts are
 * found as from the sources. The load workers' entry (worker-main.js) sits beside main.js, where
 * src/load/workers/pool.ts looks for it in a build.
 *
 * HARNESS_TEST_FROM_SOURCES=1 skips the bundle: every child then runs the sources through tsx. Tests that must run
 * bin/harness.js exactly as a user's checkout does set HARNESS_CLI_ENTRY to '' for their child.
 */
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** esbuild as tsx resolves it (a dependency of tsx, not one of ours). */
function esbuild(): typeof import('esbuild') {
  const fromTsx = createRequire(createRequire(import.meta.url).resolve('tsx/package.json'));
  return fromTsx('esbuild') as typeof import('esbuild');
}

/** Bundles the CLI into `outdir`; returns the entry bin/harness.js is to run. */
export async function buildCli(outdir: string): Promise<string> {
  const { build } = esbuild();
  await build({
    absWorkingDir: ROOT,
    entryPoints: { main: 'src/cli/main.ts', 'worker-main': 'src/load/workers/worker-main.ts' },
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    logLevel: 'error',
  });
  return join(outdir, 'main.js');
}

/** Bundles left by runs that were killed before their teardown: their process is gone. */
function removeOrphans(builds: string): void {
  if (!existsSync(builds)) return;
  for (const entry of readdirSync(builds)) {
    const pid = Number(entry);
    let alive = false;
    try {
      alive = Number.isInteger(pid) && pid > 0 && process.kill(pid, 0);
    } catch (err) {
      alive = (err as NodeJS.ErrnoException).code === 'EPERM';
    }
    if (!alive) rmSync(join(builds, entry), { recursive: true, force: true });
  }
}

export default async function setup(): Promise<(() => void) | undefined> {
  if (process.env.HARNESS_TEST_FROM_SOURCES === '1') {
    delete process.env.HARNESS_CLI_ENTRY;
    return undefined;
  }
  const builds = join(ROOT, 'test-output', 'cli-build');
  removeOrphans(builds);
  const outdir = join(builds, String(process.pid));
  rmSync(outdir, { recursive: true, force: true });
  process.env.HARNESS_CLI_ENTRY = await buildCli(outdir);
  return () => rmSync(outdir, { recursive: true, force: true });
}
