/**
 * The layering rule over an import graph: no import from a lower floor to a higher one, no file on no floor, no
 * narrower rule broken, and no import cycle between files (strongly connected components, Tarjan, iterative so a
 * deep chain cannot overflow the stack).
 */
import type { ImportGraph } from './import-graph.ts';
import { type LayerTable, within } from './layer-table.ts';

export interface LayerViolations {
  /** `from → to (floor a → floor b)` for each import that points up, or outside a narrower rule. */
  upward: string[];
  /** Files that no row of the table places. */
  unplaced: string[];
  /** Each cycle's files, sorted, joined by ` ↔ `. */
  cycles: string[];
}

/** The floor of a path: its most specific row (a file named on its own beats its folder's row). */
export function floorOf(table: LayerTable, path: string): number | undefined {
  let best: { floor: number; length: number } | undefined;
  for (const { floor, paths } of table.floors) {
    for (const prefix of paths) {
      if (within(path, prefix) && (!best || prefix.length > best.length)) best = { floor, length: prefix.length };
    }
  }
  return best?.floor;
}

function importBreaks(table: LayerTable, from: string, to: string): string | undefined {
  const a = floorOf(table, from);
  const b = floorOf(table, to);
  if (a !== undefined && b !== undefined && b > a) return `${from} → ${to} (floor ${a} → ${b})`;
  for (const rule of table.narrower) {
    if (within(from, rule.folder) && !rule.only.some((p) => within(to, p))) return `${from} → ${to} (${rule.folder} imports only ${rule.only.join(', ')})`;
  }
  return undefined;
}

/** Strongly connected components of more than one file, or of one file importing itself. */
export function importCycles(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const found: string[][] = [];
  let next = 0;
  for (const root of graph.keys()) {
    if (index.has(root)) continue;
    const work: Array<{ node: string; edge: number }> = [{ node: root, edge: 0 }];
    index.set(root, next);
    low.set(root, next++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1] as { node: string; edge: number };
      const edges = graph.get(frame.node) ?? [];
      if (frame.edge < edges.length) {
        const to = edges[frame.edge++] as string;
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, edge: 0 });
        } else if (onStack.has(to)) low.set(frame.node, Math.min(low.get(frame.node) as number, index.get(to) as number));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node) as number, low.get(frame.node) as number));
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop() as string;
        onStack.delete(member);
        component.push(member);
      } while (member !== frame.node);
      if (component.length > 1 || edges.includes(frame.node)) found.push(component.sort());
    }
  }
  return found;
}

export function checkLayers(graph: ImportGraph, table: LayerTable): LayerViolations {
  const upward: string[] = [];
  const unplaced: string[] = [];
  for (const [from, targets] of graph) {
    if (floorOf(table, from) === undefined) unplaced.push(from);
    for (const to of targets) {
      const broken = importBreaks(table, from, to);
      if (broken) upward.push(broken);
    }
  }
  const cycles = importCycles(graph).map((files) => files.join(' ↔ '));
  return { upward: upward.sort(), unplaced: unplaced.sort(), cycles: cycles.sort() };
}
