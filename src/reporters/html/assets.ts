/**
 * What an HTML page inlines: the chart library (uPlot, read from node_modules when the page is written, so the
 * file works offline and without a CDN) and our client scripts and stylesheet (src/reporters/html/client/).
 * Read once per process; a report run writes one page, compare one more.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { packageUrl } from '../../package-root.ts';

const require = createRequire(import.meta.url);
const CLIENT_DIR = packageUrl('src/reporters/html/client/');

/** Client scripts in load order: helpers first, each page's renderer last. */
const SHARED_SCRIPTS = ['dom.js', 'series.js', 'charts.js'] as const;
export type PageKind = 'report' | 'compare' | 'trend';
const PAGE_SCRIPTS: Record<PageKind, string[]> = { report: ['report-banner.js', 'report-scenario.js', 'report-page.js'], compare: ['compare-page.js'], trend: ['trend-page.js'] };

export interface PageAssets {
  /** Scripts in order, each to be inlined in its own <script> element. */
  scripts: string[];
  css: string;
}

const cache = new Map<PageKind, PageAssets>();

export function pageAssets(kind: PageKind): PageAssets {
  const cached = cache.get(kind);
  if (cached) return cached;
  const uplotJs = readFileSync(require.resolve('uplot/dist/uPlot.iife.min.js'), 'utf8');
  const uplotCss = readFileSync(require.resolve('uplot/dist/uPlot.min.css'), 'utf8');
  const client = [...SHARED_SCRIPTS, ...PAGE_SCRIPTS[kind]].map((file) => readClient(file));
  const assets = { scripts: [uplotJs, ...client], css: `${uplotCss}\n${readClient('styles.css')}` };
  cache.set(kind, assets);
  return assets;
}

/** Source of one client file (also used by unit tests that run the pure helpers in a VM). */
export function readClient(file: string): string {
  return readFileSync(new URL(file, CLIENT_DIR), 'utf8');
}
