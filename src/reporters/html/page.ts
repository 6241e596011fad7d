/**
 * The page template shared by report.html and compare.html: one self-contained file with the stylesheet, the
 * data (JSON in a non-executed script element) and the scripts inlined. A Content-Security-Policy allows only
 * these exact scripts (by hash) and no network at all, so even a markup bug could not run a target's script or
 * make the page phone home.
 */
import { createHash } from 'node:crypto';
import { pageAssets, type PageKind } from './assets.ts';
import { escapeHtml, jsonForScript, scriptSafe } from './escape.ts';

export interface PageInput {
  kind: PageKind;
  /** Harness-made title (escaped anyway). */
  title: string;
  /** The data the client renders: a Report or a Comparison, already redacted. */
  data: unknown;
}

export function renderPage(input: PageInput): string {
  const assets = pageAssets(input.kind);
  const scripts = assets.scripts.map(scriptSafe);
  const hashes = scripts.map((source) => `'sha256-${createHash('sha256').update(source, 'utf8').digest('base64')}'`);
  const csp = [
    "default-src 'none'",
    `script-src ${hashes.join(' ')}`,
    "style-src 'unsafe-inline'",
    'img-src data:',
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(input.title)}</title>`,
    `<style>${assets.css.replace(/<\/(style)/gi, '<\\/$1')}</style>`,
    '</head>',
    `<body data-page="${input.kind}">`,
    '<main id="app"><noscript>This report needs JavaScript to render; the data is in report.json next to this file.</noscript></main>',
    `<script type="application/json" id="page-data">${jsonForScript(input.data)}</script>`,
    ...scripts.map((source) => `<script>${source}</script>`),
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
