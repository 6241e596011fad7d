/** src/load/ is a lower layer: it imports only itself, config (types and errors) and util, never jobs, HTTP, reporters or the CLI. */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../../..');
const loadDir = join(root, 'src/load');
// package-root.ts is a leaf (where the package's own files are) that every layer may import.
const allowed = [/^src\/load\//, /^src\/config\//, /^src\/util\//, /^src\/errors\.ts$/, /^src\/exit-codes\.ts$/, /^src\/package-root\.ts$/];

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : /\.(ts|mjs)$/.test(e.name) ? [join(dir, e.name)] : []));
}

describe('layering', () => {
  it('src/load imports nothing above it', () => {
    const upward: string[] = [];
    for (const file of files(loadDir)) {
      for (const m of readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)) {
        const target = relative(root, resolve(dirname(file), m[1] as string));
        if (!allowed.some((re) => re.test(target))) upward.push(`${relative(root, file)} → ${target}`);
      }
    }
    expect(upward).toEqual([]);
  });
});
