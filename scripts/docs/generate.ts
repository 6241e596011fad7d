/**
 * `npm run docs:reference`: writes docs/reference/checks.md and docs/reference/config.md.
 * The catalogue's "sends" column is measured: every suite runs once against the embedded reference target with
 * the checks' traffic written as HAR (`harness run --har`), and each check's requests are read back from it.
 * `--check` compares instead of writing and exits 1 when a page is out of date (what the docs test does).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configFromObject } from '../../src/config/index.ts';
import { credentialsFromReference } from '../../src/job/open-target.ts';
import { runJob } from '../../src/job/run-job.ts';
import { startReferenceTarget } from '../../src/target/index.ts';
import { createDefaultRegistry } from '../../suites/index.ts';
import { checkCatalogue, configReference, requestShape } from './reference.ts';

export interface ReferencePages {
  'docs/reference/checks.md': string;
  'docs/reference/config.md': string;
}

export async function buildReferencePages(root = process.cwd()): Promise<ReferencePages> {
  const registry = createDefaultRegistry();
  const dir = mkdtempSync(join(tmpdir(), 'harness-docs-'));
  const har = join(dir, 'traffic.har');
  const target = await startReferenceTarget({ host: '127.0.0.1', port: 0 });
  let templates: string[] = [];
  try {
    const config = configFromObject({
      target: { baseUrl: target.baseUrl },
      credentials: credentialsFromReference(target.credentials),
      report: { outDir: join(dir, 'reports') },
      // Every exchange of the run is needed here, not the bounded sample a report keeps.
      load: { scenarios: [] },
    });
    templates = Object.values(config.api.paths);
    await runJob({ config, registry, log: () => {}, harFile: har, trafficLimits: { maxKept: Number.MAX_SAFE_INTEGER, maxKeptBytes: Number.MAX_SAFE_INTEGER } });
  } finally {
    await target.close();
  }
  const entries = (JSON.parse(readFileSync(har, 'utf8')) as { log: { entries: Array<{ comment?: string; request: { method: string; url: string } }> } }).log.entries;
  rmSync(dir, { recursive: true, force: true });
  const sends = new Map<string, Set<string>>();
  for (const check of registry.suites.flatMap((s) => s.checks)) sends.set(check.id, new Set());
  for (const entry of entries) {
    const id = /^check ([^;\s]+)/.exec(entry.comment ?? '')?.[1];
    if (id) (sends.get(id) ?? sends.set(id, new Set()).get(id)!).add(requestShape(entry.request.method, entry.request.url, templates));
  }
  const sorted = new Map([...sends].map(([id, set]) => [id, [...set].sort()]));
  const schema = JSON.parse(readFileSync(join(root, 'schemas/harness-config.schema.json'), 'utf8'));
  return {
    'docs/reference/checks.md': checkCatalogue(registry, sorted, 'in one run of every suite against the embedded reference target'),
    'docs/reference/config.md': configReference(schema),
  };
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const check = process.argv.includes('--check');
  const pages = await buildReferencePages();
  let stale = 0;
  for (const [path, text] of Object.entries(pages)) {
    if (check) {
      let current = '';
      try {
        current = readFileSync(path, 'utf8');
      } catch {}
      if (current !== text) {
        stale++;
        process.stderr.write(`${path} is out of date: run npm run docs:reference\n`);
      }
    } else {
      writeFileSync(path, text);
      process.stdout.write(`wrote ${path}\n`);
    }
  }
  process.exit(stale ? 1 : 0);
}
