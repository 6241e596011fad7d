/**
 * The package as a user gets it: `npm pack` (which builds dist/ through `prepack`), install the tarball in a
 * fresh project, import it with plain `node` (no TypeScript loader) and type-check a consumer file with `tsc`
 * (no allowImportingTsExtensions, no skipLibCheck). Dependencies come from npm's cache when they are there
 * (`--prefer-offline`); the install is bounded by a timeout.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../helpers/cli.ts';

const run = promisify(execFile);
const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));
const TSC = join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

let dir: string;
let packed: { filename: string; files: { path: string }[] };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'harness-pack-'));
  const { stdout } = await run(NPM, ['pack', '--json', '--pack-destination', dir], { cwd: REPO_ROOT, timeout: 180_000, maxBuffer: 16 << 20 });
  // `prepack` runs `npm run build`, whose own output precedes the JSON on stdout.
  packed = (JSON.parse(stdout.slice(stdout.indexOf('[\n'))) as (typeof packed)[])[0]!;
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  await run(NPM, ['install', '--prefer-offline', '--no-audit', '--no-fund', `./${packed.filename}`, '@types/node@20', 'vitest@^4.1.12'], {
    cwd: dir,
    timeout: 240_000,
    maxBuffer: 16 << 20,
  });
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
    const result = await run(process.execPath, [vitest, 'run', 'harness.test.ts'], { cwd: dir, timeout: 120_000, env: { ...process.env, NO_COLOR: '1' } })
      .catch((err: { stdout: string; stderr: string }) => err);
    expect(`${result.stdout}${result.stderr}`).toMatch(/1 passed/);
  }, 150_000);
});
