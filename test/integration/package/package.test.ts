/**
 * The package as a user gets it: `npm pack` (which builds dist/ through `prepack`), install the tarball alone in a
 * fresh project with `npm i` (npm's own output kept: no engine warning, no install script — checked in the output and
 * in every installed package.json), run its CLI, import it with plain `node` (no TypeScript loader), type-check a
 * consumer file with `tsc` (no allowImportingTsExtensions, no skipLibCheck), and `npm publish --dry-run` the tarball
 * (never a real publish). Dependencies come from npm's cache when they are there (`--prefer-offline`); every npm
 * command is bounded by a timeout.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, posix } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../helpers/cli.ts';

const execFileAsync = promisify(execFile);
// The installed package is run as a user runs it: its own dist/, not the test suite's bundle of the sources
// (test/setup/cli-build.ts). Its children get an environment without the bundle's name; the worker's own keeps it,
// for the files that run after this one in the same worker (they share its process.env).
const { HARNESS_CLI_ENTRY: _suiteBuild, ...USER_ENV } = process.env;

/** A child of this test, with a user's environment (plus `options.env`); its output as text. */
function run(file: string, args: readonly string[], options: { cwd: string; timeout: number; maxBuffer?: number; env?: NodeJS.ProcessEnv }): Promise<{ stdout: string; stderr: string }> {
  return execFileAsync(file, args, { ...options, encoding: 'utf8', env: { ...USER_ENV, ...options.env } });
}
const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));
const TSC = join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

let dir: string;
let packed: { filename: string; files: { path: string }[] };
/** npm's stdout and stderr of installing the tarball alone into the fresh project. */
let installOutput: string;
/** What that install put into node_modules (before the consumer's own test tools are added). */
let installedByPackage: ReturnType<typeof installedPackages>;

/** Every package.json under a node_modules tree (scoped and nested ones too), bounded in depth. */
function installedPackages(modules: string, depth = 0): { name: string; path: string; scripts: Record<string, string> }[] {
  if (depth > 8 || !existsSync(modules)) return [];
  const found: { name: string; path: string; scripts: Record<string, string> }[] = [];
  for (const entry of readdirSync(modules)) {
    if (entry.startsWith('.')) continue;
    const dirs = entry.startsWith('@') ? readdirSync(join(modules, entry)).map((sub) => join(modules, entry, sub)) : [join(modules, entry)];
    for (const path of dirs) {
      const manifest = join(path, 'package.json');
      if (!existsSync(manifest)) continue;
      const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { name: string; scripts?: Record<string, string> };
      // A binding.gyp without an install script makes npm run `node-gyp rebuild`: an install script too.
      const scripts = { ...(existsSync(join(path, 'binding.gyp')) ? { install: 'node-gyp rebuild (binding.gyp)' } : {}), ...pkg.scripts };
      found.push({ name: pkg.name, path, scripts }, ...installedPackages(join(path, 'node_modules'), depth + 1));
    }
  }
  return found;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'harness-pack-'));
  const { stdout } = await run(NPM, ['pack', '--json', '--pack-destination', dir], { cwd: REPO_ROOT, timeout: 180_000, maxBuffer: 16 << 20 });
  // `prepack` runs `npm run build`, whose own output precedes the JSON on stdout.
  packed = (JSON.parse(stdout.slice(stdout.indexOf('[\n'))) as (typeof packed)[])[0]!;
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  // The tarball alone first, as a user's `npm i api-conformance-harness`: this output is what the tests read.
  const installed = await run(NPM, ['install', '--prefer-offline', '--no-audit', '--no-fund', `./${packed.filename}`], {
    cwd: dir,
    timeout: 240_000,
    maxBuffer: 16 << 20,
    env: { NO_COLOR: '1' },
  });
  installOutput = `${installed.stdout}${installed.stderr}`;
  installedByPackage = installedPackages(join(dir, 'node_modules'));
  // Then what the consumer's own tests use: @types/node 20 and vitest 4, linked from this repository's own install
  // (its lockfile's versions, within the ranges of a consumer's `npm i -D @types/node@20 vitest@^4.1.12`), without
  // a second npm install.
  // Only tools of the consumer's: what the tarball installed is read above, before they are there.
  for (const tool of ['vitest', join('@types', 'node')]) {
    mkdirSync(dirname(join(dir, 'node_modules', tool)), { recursive: true });
    symlinkSync(join(REPO_ROOT, 'node_modules', tool), join(dir, 'node_modules', tool), 'dir');
  }
  copyFileSync(join(FIXTURES, 'consumer.ts'), join(dir, 'consumer.ts'));
  copyFileSync(join(FIXTURES, 'consumer.mjs'), join(dir, 'consumer.mjs'));
  // Named so that this repository's own vitest run does not pick it up; the consumer runs it as a test file.
  copyFileSync(join(FIXTURES, 'consumer-vitest.ts'), join(dir, 'harness.test.ts'));
}, 480_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the npm package', () => {
  it('ships the build, the files read at run time, and no tests or TypeScript sources', () => {
    const paths = packed.files.map((f) => f.path);
    expect(paths).toContain('dist/src/index.js');
    expect(paths).toContain('dist/src/index.d.ts');
    expect(paths).toContain('dist/src/cli/main.js');
    expect(paths).toContain('dist/suites/index.js');
    expect(paths).toContain('bin/harness.js');
    expect(paths).toContain('schemas/api/send-message-request.schema.json');
    expect(paths).toContain('schemas/harness-config.schema.json');
    expect(paths).toContain('scenarios/smoke.yaml');
    expect(paths).toContain('src/reporters/html/client/report-page.js');
    expect(paths.filter((p) => p.startsWith('test/') || /\.test\.[jt]s$/.test(p))).toEqual([]);
    expect(paths.filter((p) => p.endsWith('.ts') && !p.endsWith('.d.ts'))).toEqual([]);
  });

  it('ships every page README.md and the shipped docs link to inside the package (links are live on npm)', () => {
    const paths = new Set(packed.files.map((f) => f.path));
    const pages = [...paths].filter((p) => p.endsWith('.md'));
    expect(pages).toEqual(expect.arrayContaining(['README.md', 'docs/certify.md', 'docs/reference/cli.md']));
    const dead: string[] = [];
    for (const page of pages) {
      const text = readFileSync(join(REPO_ROOT, page), 'utf8');
      for (const [, href] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z][a-z0-9+.-]*:|^#/i.test(href!)) continue;
        const target = posix.normalize(posix.join(posix.dirname(page), href!.split('#')[0]!));
        // ../shared/SERVICE-SPEC.md and the like are outside any package: the README names them as the spec.
        if (target.startsWith('..')) continue;
        if (!paths.has(target) && ![...paths].some((p) => p.startsWith(`${target.replace(/\/$/, '')}/`))) dead.push(`${page}: ${href}`);
      }
    }
    expect(dead).toEqual([]);
  });

  it('installs with no engine warning and runs no install script, on this Node (engines allow >= 20.19)', () => {
    expect(installOutput).toMatch(/added \d+ packages?/);
    expect(installOutput).not.toMatch(/EBADENGINE|Unsupported engine/);
    expect(installOutput).not.toMatch(/install[- ]scripts?|postinstall|preinstall/i);
    const withScripts = installedByPackage.filter((p) => ['preinstall', 'install', 'postinstall'].some((s) => s in p.scripts));
    expect(withScripts.map((p) => p.name)).toEqual([]);
    const names = installedByPackage.map((p) => p.name);
    expect(names.length).toBeGreaterThan(50);
    expect(names).toContain('api-conformance-harness');
    expect(names).not.toContain('@scarf/scarf');
    expect(names).not.toContain('swagger-ui-dist');
  });

  it("runs the installed CLI's --help", async () => {
    const { stdout } = await run(process.execPath, [join(dir, 'node_modules', '.bin', 'harness'), '--help'], { cwd: dir, timeout: 30_000 });
    expect(stdout).toMatch(/^Usage: harness/m);
    expect(stdout).toMatch(/export/);
  }, 60_000);

  it('is publishable: a LICENSE, no private flag, no made-up repository, and npm publish --dry-run succeeds', async () => {
    const paths = packed.files.map((f) => f.path);
    expect(paths).toContain('LICENSE');
    const manifest = JSON.parse(readFileSync(join(dir, 'node_modules', 'api-conformance-harness', 'package.json'), 'utf8')) as Record<string, any>;
    expect(manifest.private).toBeUndefined();
    expect(manifest.license).toBe('MIT');
    // No made-up address: a repository field names a real one or is absent.
    expect(manifest.repository).toBeUndefined();
    expect(readFileSync(join(dir, 'node_modules', 'api-conformance-harness', 'LICENSE'), 'utf8')).toMatch(/^MIT License/);
    // The build emits without type-checking (tsconfig.build.json noCheck): a publish type-checks first.
    expect(manifest.scripts?.prepublishOnly).toBe('npm run typecheck');
    // --dry-run: npm checks and reports what it would publish, and publishes nothing.
    const result = await run(NPM, ['publish', '--dry-run', '--ignore-scripts', `./${packed.filename}`], { cwd: dir, timeout: 120_000, maxBuffer: 16 << 20 });
    expect(`${result.stdout}${result.stderr}`).toMatch(/\+ api-conformance-harness@\d+\.\d+\.\d+/);
  }, 150_000);

  it('imports with plain node and works: reference target, scenarios, k6 export, report files', async () => {
    const { stdout } = await run(process.execPath, ['consumer.mjs'], { cwd: dir, timeout: 60_000 });
    const out = JSON.parse(stdout) as Record<string, unknown>;
    expect(out.sendStatus).toBe(201);
    expect(out.sandboxBundleStatus).toBe(200);
    expect(out.openapi).toBe('3.1.0');
    expect(out.k6HasOptions).toBe(true);
    expect(out.reportValid).toBe(true);
    expect(out.htmlHasUplot).toBe(true);
    expect(out.shippedScenarios).toContain('smoke');
    // Everything the CLI does is in the library API.
    expect(out.exports).toEqual(
      expect.arrayContaining([
        'runJob', 'runLoadJob', 'runCapacityJob', 'runProbeJob', 'runCompare', 'exportK6Script',
        'JsonReporter', 'HtmlReporter', 'JunitReporter', 'ConsoleReporter', 'WebhookReceiver', 'buildApp', 'startReferenceTarget', 'buildOpenApiDocument',
        'importK6', 'mergeSnapshots',
      ]),
    );
  }, 90_000);

  it('runs the CLI from the build with plain node', async () => {
    const { stdout } = await run(process.execPath, [join(dir, 'node_modules', '.bin', 'harness'), '--version'], { cwd: dir, timeout: 30_000 });
    expect(stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    const validated = await run(process.execPath, [join(dir, 'node_modules', '.bin', 'harness'), 'validate', join(dir, 'node_modules', 'api-conformance-harness', 'harness.config.yaml')], {
      cwd: dir,
      timeout: 30_000,
    });
    expect(validated.stdout).toMatch(/valid|ok/i);
  }, 60_000);

  it("type-checks a consumer's TypeScript with tsc against the shipped .d.ts", async () => {
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: false, types: ['node'] },
        files: ['consumer.ts'],
      }),
    );
    const result = await run(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: dir, timeout: 120_000 }).catch((err: { stdout: string }) => err);
    expect(result.stdout).toBe('');
  }, 150_000);

  it("runs README's Library example as the consumer project's own vitest test", async () => {
    const vitest = join(dir, 'node_modules', 'vitest', 'vitest.mjs');
    const result = await run(process.execPath, [vitest, 'run', 'harness.test.ts'], { cwd: dir, timeout: 120_000, env: { NO_COLOR: '1' } })
      .catch((err: { stdout: string; stderr: string }) => err);
    expect(`${result.stdout}${result.stderr}`).toMatch(/1 passed/);
  }, 150_000);
});
