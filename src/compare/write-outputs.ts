/** Writes compare.json and compare.html into the output folder and returns their paths. */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { renderPage } from '../reporters/html/page.ts';
import type { Comparison } from './model.ts';

export interface WrittenOutputs {
  json: string;
  html: string;
}

export async function writeComparison(comparison: Comparison, outDir: string): Promise<WrittenOutputs> {
  await mkdir(outDir, { recursive: true });
  const json = join(outDir, 'compare.json');
  const html = join(outDir, 'compare.html');
  await writeFile(json, `${JSON.stringify(comparison, null, 2)}\n`);
  // `comparison` was redacted by runCompare before it reached here (and before any escaping could hide a secret).
  await writeFile(html, compareHtml(comparison));
  return { json, html };
}

export function compareHtml(comparison: Comparison): string {
  return renderPage({ kind: 'compare', title: `Harness compare: ${comparison.runs.map((r) => r.label).join(' vs ')}`, data: comparison });
}
