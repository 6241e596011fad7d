/**
 * The examples of README.md and of every page under docs/ are the shipped files and commands that work:
 * - a YAML block marked `<!-- file: PATH -->` is exactly PATH's text, and a YAML block that names a shipped file in
 *   its first comment must carry that mark (so a copy cannot drift from the file);
 * - every `npx harness …` command in a shell block that is not marked `<!-- illustrative … -->` names a real
 *   subcommand with flags it has, and either runs here (validate, export k6) or is run by the test named in RUN_BY.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram, main } from '../../src/cli/main.ts';

interface Block {
  /** The Markdown file it is in, for messages. */
  file: string;
  lang: string;
  body: string;
  /** The nearest non-empty line before the fence (an HTML comment marks the block). */
  marker: string;
  line: number;
}

function blocks(file: string, markdown: string): Block[] {
  const lines = markdown.split('\n');
  const out: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```(\w*)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const indent = open[1]!.length;
    const end = lines.findIndex((l, j) => j > i && /^\s*```\s*$/.test(l));
    let k = i - 1;
    while (k >= 0 && lines[k]!.trim() === '') k--;
    out.push({ file, lang: open[2]!, body: lines.slice(i + 1, end).map((l) => l.slice(indent)).join('\n') + '\n', marker: (lines[k] ?? '').trim(), line: i + 1 });
    i = end;
  }
  return out;
}

/** README.md and every Markdown page under docs/ (generated reference pages included). */
const PAGES = ['README.md', ...(readdirSync('docs', { recursive: true }) as string[]).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
const all = PAGES.flatMap((file) => blocks(file, readFileSync(file, 'utf8')));
const illustrative = (b: Block) => b.marker.startsWith('<!-- illustrative');

describe('README YAML blocks that are files', () => {
  const marked = all.filter((b) => b.marker.startsWith('<!-- file:'));

  it('marks the shipped scenario files it shows', () => {
    expect(marked.map((b) => b.marker)).toEqual(expect.arrayContaining(['<!-- file: scenarios/baseline.yaml -->', '<!-- file: scenarios/ratelimit.yaml -->']));
  });

  it.each(marked.map((b) => [b.marker.replace(/^<!-- file: (\S+) -->$/, '$1'), b] as const))('%s equals the shipped file', (path, block) => {
    expect(existsSync(path), path).toBe(true);
    expect(block.body).toBe(readFileSync(path, 'utf8'));
  });

  it('a YAML block whose first line names a shipped file is marked as that file', () => {
    const naming = all.filter((b) => b.lang === 'yaml' && /^# (\S+\.ya?ml)\s*$/.test(b.body.split('\n')[0]!) && existsSync(b.body.split('\n')[0]!.slice(2).trim()));
    for (const b of naming) expect(b.marker, `${b.file} line ${b.line}`).toMatch(/^<!-- file: /);
  });
});

/** Which test runs each subcommand as README shows it (beyond the ones run here). */
const RUN_BY: Record<string, { test: string; shows: string }> = {
  serve: { test: 'test/integration/cli/serve.test.ts', shows: 'startServe(' },
  run: { test: 'test/integration/cli/run.test.ts', shows: "runCli(['run'" },
  compare: { test: 'test/integration/cli/compare.test.ts', shows: "runCli(['compare'" },
  load: { test: 'test/integration/load/load-cli.test.ts', shows: "runCli(['load'" },
  capacity: { test: 'test/integration/load/load-cli.test.ts', shows: "runCli(['capacity'" },
  probe: { test: 'test/integration/cli/probe.test.ts', shows: "runCli(['probe'" },
  import: { test: 'test/integration/k6/merge-runners.test.ts', shows: "runCli(['import', 'k6'" },
  history: { test: 'test/integration/cli/history-gate.test.ts', shows: "runCli(['history'" },
  init: { test: 'test/integration/init/init-cli.test.ts', shows: "runCli(['init'" },
};

/** `npx harness …` commands of the non-illustrative shell blocks, continuation lines joined, comments dropped. */
function commands(): Array<{ argv: string[]; line: string }> {
  const out: Array<{ argv: string[]; line: string }> = [];
  for (const b of all.filter((x) => (x.lang === 'sh' || x.lang === 'yaml') && !illustrative(x))) {
    for (const raw of b.body.replace(/\\\n\s*/g, ' ').split('\n')) {
      const at = raw.indexOf('npx harness ');
      if (at < 0) continue;
      const text = raw.slice(at + 'npx harness '.length).replace(/\s+#.*$/, '').replace(/\s*&\s*$/, '');
      out.push({ argv: text.match(/'[^']*'|"[^"]*"|\S+/g)!.map((t) => t.replace(/^['"]|['"]$/g, '')), line: `${b.file}:${b.line}` });
    }
  }
  return out;
}

function subcommand(argv: string[]): { cmd: Command; rest: string[]; name: string } {
  const program = buildProgram(() => {});
  let cmd = program.commands.find((c) => c.name() === argv[0]);
  if (!cmd) throw new Error(`unknown subcommand "${argv[0]}"`);
  let rest = argv.slice(1);
  const nested = cmd.commands.find((c) => c.name() === rest[0]);
  if (nested) {
    cmd = nested;
    rest = rest.slice(1);
  }
  return { cmd, rest, name: argv[0]! };
}

describe('README commands', () => {
  const found = commands();

  it('finds the commands README shows', () => {
    expect(found.map((c) => c.argv[0])).toEqual(expect.arrayContaining(['serve', 'run', 'validate', 'compare', 'load', 'export']));
  });

  it.each(found.map((c) => [c.argv.join(' '), c] as const))('`harness %s` has that subcommand and those flags', (_text, c) => {
    const { cmd, rest } = subcommand(c.argv);
    const known = new Set(cmd.options.flatMap((o) => [o.long, o.short]).filter(Boolean));
    for (const token of rest.filter((t) => t.startsWith('-'))) expect(known.has(token.split('=')[0]!), `${c.line}: ${token} of harness ${c.argv[0]}`).toBe(true);
  });

  it('each command is run here or by a named test', () => {
    for (const c of found) {
      if (c.argv[0] === 'validate' || c.argv[0] === 'export') continue; // run below
      const test = RUN_BY[c.argv[0]!];
      expect(test, `${c.line}: harness ${c.argv[0]} is run by no test; mark its block <!-- illustrative -->`).toBeDefined();
      expect(readFileSync(test!.test, 'utf8')).toContain(test!.shows);
    }
  });

  it('runs `harness validate` and `harness export k6` as README shows them', async () => {
    const out = mkdtempSync(join(tmpdir(), 'readme-'));
    const runnable = found.filter((c) => c.argv[0] === 'validate' || c.argv[0] === 'export');
    expect(runnable.length).toBeGreaterThan(0);
    for (const c of runnable) {
      // Files README writes go to a temp folder; everything else is as shown.
      const argv = c.argv.map((a, i) => (c.argv[i - 1] === '--out' || c.argv[i - 1] === '--out-dir' ? join(out, a) : a));
      expect(await main(['node', 'harness', ...argv]), argv.join(' ')).toBe(0);
    }
  }, 60_000);
});
