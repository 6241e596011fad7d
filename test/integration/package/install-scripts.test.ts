/**
 * A newcomer's `npm ci` is silent: npm 11 warns about every dependency whose install script package.json's
 * `allowScripts` neither allows nor denies ("not yet covered by allowScripts"). Every locked package with an install
 * script must be named there, so a dependency update that brings a new one fails here rather than in a newcomer's
 * terminal.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../helpers/cli.ts';

interface LockEntry { version?: string; hasInstallScript?: boolean }

const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { allowScripts?: Record<string, boolean> };
const lock = JSON.parse(readFileSync(join(REPO_ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };

/** "node_modules/a/node_modules/@s/b" → "@s/b". */
function nameOf(lockPath: string): string {
  return lockPath.slice(lockPath.lastIndexOf('node_modules/') + 'node_modules/'.length);
}

describe('install scripts', () => {
  it('every locked dependency with an install script is allowed or denied by package.json allowScripts', () => {
    const allow = manifest.allowScripts ?? {};
    const withScripts = Object.entries(lock.packages).filter(([path, entry]) => path !== '' && entry.hasInstallScript);
    // esbuild's postinstall checks its platform binary and links it in place of the JS shim (tsx and vite use it).
    expect(withScripts.map(([path]) => nameOf(path))).toContain('esbuild');
    const uncovered = withScripts
      .map(([path, entry]) => ({ name: nameOf(path), version: entry.version }))
      .filter(({ name, version }) => allow[name] === undefined && allow[`${name}@${version}`] === undefined);
    expect(uncovered).toEqual([]);
  });

  it('allows no package the lockfile does not hold with an install script (no stale approvals)', () => {
    const withScripts = new Set(Object.entries(lock.packages).filter(([, e]) => e.hasInstallScript).map(([path]) => nameOf(path)));
    const stale = Object.keys(manifest.allowScripts ?? {}).map((key) => key.replace(/(?<=.)@[^@]*$/, '')).filter((name) => !withScripts.has(name));
    expect(stale).toEqual([]);
  });
});
