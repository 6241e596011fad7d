/** Writes compare.json and compare.html into the output folder and returns their paths (history's trend too). */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { renderPage } from '../reporters/html/page.ts';
import type { Comparison } from './model.ts';

export interface WrittenOutputs {
  json: string;
  html: string;
}

export async function writeComparison(comparison: Comparison, outDir: string): Promise<WrittenOutputs> {
  // `comparison` was redacted by runCompare before it reached here (and before any escaping could hide a secret).
  return writeJsonAndPage(outDir, 'compare', comparison, compareHtml);
}

/** Writes `<name>.json` (the data, indented) and then `<name>.html` (its page) into outDir, made when missing. */
export async function writeJsonAndPage<T>(outDir: string, name: string, data: T, page: (data: T) => string): Promise<WrittenOutputs> {
  await mkdir(outDir, { recursive: true });
  const json = join(outDir, `${name}.json`);
  const html = join(outDir, `${name}.html`);
  await writeFile(json, `${JSON.stringify(data, null, 2)}\n`);
  await writeFile(html, page(data));
  return { json, html };
}

export function compareHtml(comparison: Comparison): string {
  return renderPage({ kind: 'compare', title: `Harness compare: ${comparison.runs.map((r) => r.label).join(' vs ')}`, data: comparison });
}
