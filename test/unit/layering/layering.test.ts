/**
 * The layering rule for all of src/ and suites/: the floors in ARCHITECTURE.md's layer table, imports only
 * sideways or down, no file on no floor, no import cycle between files (type-only imports count).
 *
 * Why a table and this test rather than dependency-cruiser: the rule must be the table a reader sees in
 * ARCHITECTURE.md, and a 150-line checker that reads it keeps one source of truth with no second config format and
 * no dependency to keep warning-free on Node 20 (docs/decisions/2026-11-27-layering-table.md).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkLayers, floorOf } from './check-layers.ts';
import { type ImportGraph, readImportGraph, relativeImports, repoRoot } from './import-graph.ts';
import { readLayerTable } from './layer-table.ts';

const graph = readImportGraph();
const table = readLayerTable();

/** Files reachable from `from` along imports, `from` included. */
function reach(g: ImportGraph, from: string): Set<string> {
  const seen = new Set([from]);
  const queue = [from];
  for (let i = 0; i < queue.length; i++) {
    for (const to of g.get(queue[i] as string) ?? []) if (!seen.has(to)) (seen.add(to), queue.push(to));
  }
  return seen;
}

function withEdges(g: ImportGraph, edges: Array<[string, string]>): ImportGraph {
  const copy = new Map([...g].map(([k, v]) => [k, [...v]]));
  for (const [from, to] of edges) copy.set(from, [...(copy.get(from) ?? []), to]);
  return copy;
}

function difference(after: string[], before: string[]): string[] {
  return after.filter((v) => !before.includes(v));
}

describe('layering', () => {
  it('the table in ARCHITECTURE.md names only paths that exist, each on one floor, at most ten floors', () => {
    const named = table.floors.flatMap((f) => f.paths);
    expect(named.filter((p) => !existsSync(join(repoRoot, p)))).toEqual([]);
    expect(new Set(named).size).toBe(named.length);
    expect(table.floors.length).toBeLessThanOrEqual(10);
    expect(table.floors.map((f) => f.floor)).toEqual([...table.floors.map((f) => f.floor)].sort((a, b) => b - a));
  });

  it('the tree has no upward import, no file on no floor and no import cycle', () => {
    expect(checkLayers(graph, table)).toEqual({ upward: [], unplaced: [], cycles: [] });
  });

  it('reports exactly an injected upward import, an injected cycle and an injected file on no floor', () => {
    const files = [...graph.keys()];
    const bottom = Math.min(...table.floors.map((f) => f.floor));
    const top = Math.max(...table.floors.map((f) => f.floor));
    const low = files.filter((f) => floorOf(table, f) === bottom && !f.startsWith('src/load/'));
    // An upward import from a bottom file to a top file that does not reach it back (else it would be a cycle too).
    const [from, to] = low.flatMap((f) => files.filter((t) => floorOf(table, t) === top && !reach(graph, t).has(f)).map((t) => [f, t]))[0] as [string, string];
    // A cycle between two bottom files neither of which reaches the other today.
    const [a, b] = low.flatMap((x) => low.filter((y) => x < y && !reach(graph, x).has(y) && !reach(graph, y).has(x)).map((y) => [x, y]))[0] as [string, string];
    const stray = 'src/nowhere/stray.ts';
    const injected = withEdges(graph, [[from, to], [a, b], [b, a], [stray, a]]);

    const before = checkLayers(graph, table);
    const after = checkLayers(injected, table);
    expect(difference(after.upward, before.upward)).toEqual([`${from} → ${to} (floor ${bottom} → ${top})`]);
    expect(difference(after.cycles, before.cycles)).toEqual([[a, b].sort().join(' ↔ ')]);
    expect(difference(after.unplaced, before.unplaced)).toEqual([stray]);
  });

  it('a narrower rule holds inside its folder: src/load/ reaching src/http/ is reported though http is lower', () => {
    const rule = table.narrower.find((r) => r.folder === 'src/load/');
    expect(rule).toBeDefined();
    const from = [...graph.keys()].find((f) => f.startsWith('src/load/')) as string;
    const to = [...graph.keys()].find((f) => f.startsWith('src/http/') && !reach(graph, f).has(from)) as string;
    const after = checkLayers(withEdges(graph, [[from, to]]), table);
    expect(difference(after.upward, checkLayers(graph, table).upward)).toEqual([`${from} → ${to} (src/load/ imports only ${rule?.only.join(', ')})`]);
  });

  it('reads a dynamic import() as an import: the CLI loads each command lazily and the rule still sees the edge', () => {
    const text = "const { runJob } = await import('../job/run-job.ts');\n// import('./in-a-comment.ts')\nconst s = `import('./in-a-template.ts')`;\n";
    expect(relativeImports(text)).toEqual(['../job/run-job.ts']);
    expect(graph.get('src/cli/run-command.ts')).toContain('src/job/run-job.ts');
  });
});
