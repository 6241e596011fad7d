/**
 * docs/reference/checks.md and docs/reference/config.md are generated (scripts/docs/generate.ts): this test
 * generates them again — the catalogue from the registry and one measured run of every suite against the embedded
 * reference target, the config reference from the config schema — and fails when a committed page differs.
 * Fix a failure with `npm run docs:reference`.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildReferencePages } from '../../scripts/docs/generate.ts';

describe('generated reference pages', () => {
  it('docs/reference/*.md equal what `npm run docs:reference` writes now', async () => {
    const pages = await buildReferencePages();
    for (const [path, text] of Object.entries(pages)) expect(readFileSync(path, 'utf8'), `${path} is out of date: run npm run docs:reference`).toBe(text);
    // The catalogue lists every registered check, and each one was seen running.
    expect(pages['docs/reference/checks.md']).not.toContain('(did not run)');
  }, 180_000);
});
