/**
 * Walks over JSON a target sent, without recursion. V8's JSON.parse reads a document nested 200 000 deep (a
 * 650 KB answer), but a recursive walk over the result — and JSON.stringify, and structuredClone — overflows the
 * stack at a few thousand levels. Every walk here keeps its own stack, so its memory is the document's, whatever
 * its depth; what must stay shallow (a report's evidence) is cut by `cutDeep`, which says how deep it was.
 */

/** Levels of nesting a report keeps of a target's JSON in a check's details; deeper values are cut (cutDeep). */
export const MAX_KEPT_DEPTH = 64;

type Container = unknown[] | Record<string, unknown>;

function isContainer(value: unknown): value is Container {
  return value !== null && typeof value === 'object';
}

/** Levels of nesting of `value`: 0 for a scalar, 1 for `[]` or `{"a":1}`, 2 for `[[]]`. Iterative. */
export function jsonDepth(value: unknown): number {
  let deepest = 0;
  const nodes: unknown[] = [value];
  const depths: number[] = [0];
  while (nodes.length > 0) {
    const node = nodes.pop();
    const depth = depths.pop()! + 1;
    if (!isContainer(node)) continue;
    if (depth > deepest) deepest = depth;
    const items = Array.isArray(node) ? node : Object.values(node);
    for (let i = 0; i < items.length; i++) {
      if (isContainer(items[i])) {
        nodes.push(items[i]);
        depths.push(depth);
      }
    }
  }
  return deepest;
}

/** What JSON.stringify leaves out of an object and writes as null in an array. */
function unwritable(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

/**
 * JSON text of `value` as JSON.stringify writes it with no indentation (undefined members left out, undefined
 * items as null, scalars and objects with toJSON written by JSON.stringify itself), at any depth; `sortKeys` writes
 * object members in code-unit order, so two values compare as values.
 */
export function stringifyJson(value: unknown, options: { sortKeys?: boolean } = {}): string {
  const out: string[] = [];
  // One frame per open container: the container, its member names (undefined for an array), the next index.
  const frames: Container[] = [];
  const frameKeys: Array<string[] | undefined> = [];
  const next: number[] = [];
  const write = (node: unknown): void => {
    if (Array.isArray(node)) {
      out.push('[');
      frames.push(node);
      frameKeys.push(undefined);
      next.push(0);
    } else if (isContainer(node) && typeof (node as { toJSON?: unknown }).toJSON !== 'function') {
      const keys = Object.keys(node).filter((key) => !unwritable((node as Record<string, unknown>)[key]));
      if (options.sortKeys) keys.sort();
      out.push('{');
      frames.push(node);
      frameKeys.push(keys);
      next.push(0);
    } else out.push(JSON.stringify(node) ?? 'null');
  };
  write(value);
  while (frames.length > 0) {
    const top = frames.length - 1;
    const node = frames[top]!;
    const keys = frameKeys[top];
    const i = next[top]!;
    const length = keys ? keys.length : (node as unknown[]).length;
    if (i >= length) {
      out.push(keys ? '}' : ']');
      frames.pop();
      frameKeys.pop();
      next.pop();
      continue;
    }
    next[top] = i + 1;
    if (i > 0) out.push(',');
    if (keys) {
      out.push(`${JSON.stringify(keys[i])}:`);
      write((node as Record<string, unknown>)[keys[i]!]);
    } else {
      const item = (node as unknown[])[i];
      if (unwritable(item)) out.push('null');
      else write(item);
    }
  }
  return out.join('');
}

/** JSON with keys sorted, so two answers compare as values, at any depth. */
export function canonicalJson(value: unknown): string {
  return stringifyJson(value, { sortKeys: true });
}

/**
 * A copy of `value` in which every string is `onString(string, key)` (key: the member's name, undefined for an
 * array item or the root) and every member name `onKey(name)`; `replace(key, inner)` may stand a value of its own
 * for a member before it is walked. Iterative, so any depth.
 */
export function mapJson(
  value: unknown,
  visit: { onString?: (text: string) => string; onKey?: (name: string) => string; replace?: (key: string, inner: unknown) => { value: unknown } | undefined },
): unknown {
  const leaf = (node: unknown): unknown => (typeof node === 'string' && visit.onString ? visit.onString(node) : node);
  if (!isContainer(value)) return leaf(value);
  const root: Container = Array.isArray(value) ? [] : {};
  const stack: Array<[source: Container, copy: Container]> = [[value, root]];
  while (stack.length > 0) {
    const [source, copy] = stack.pop()!;
    const place = (key: string | number, inner: unknown): void => {
      if (isContainer(inner)) {
        const child: Container = Array.isArray(inner) ? [] : {};
        (copy as Record<string | number, unknown>)[key] = child;
        stack.push([inner, child]);
      } else (copy as Record<string | number, unknown>)[key] = leaf(inner);
    };
    if (Array.isArray(source)) source.forEach((inner, i) => place(i, inner));
    else {
      for (const [key, inner] of Object.entries(source)) {
        const name = visit.onKey ? visit.onKey(key) : key;
        const replaced = visit.replace?.(key, inner);
        if (replaced) (copy as Record<string, unknown>)[name] = replaced.value;
        else place(name, inner);
      }
    }
  }
  return root;
}

/**
 * `value` itself when it is nested at most `maxDepth` deep; otherwise a copy in which every container at level
 * `maxDepth` is a note saying how deep the whole value went, so a report that holds it stays writable (JSON.stringify
 * and structuredClone are recursive) and the reader learns what was cut.
 */
export function cutDeep(value: unknown, maxDepth = MAX_KEPT_DEPTH): unknown {
  const depth = jsonDepth(value);
  if (depth <= maxDepth) return value;
  const note = `[cut: JSON nested ${depth} levels deep; the first ${maxDepth} are kept]`;
  const root: Container = Array.isArray(value) ? [] : {};
  const stack: Array<[source: Container, copy: Container, level: number]> = [[value as Container, root, 1]];
  while (stack.length > 0) {
    const [source, copy, level] = stack.pop()!;
    for (const [key, inner] of Object.entries(source)) {
      if (!isContainer(inner)) (copy as Record<string, unknown>)[key] = inner;
      else if (level >= maxDepth) (copy as Record<string, unknown>)[key] = note;
      else {
        const child: Container = Array.isArray(inner) ? [] : {};
        (copy as Record<string, unknown>)[key] = child;
        stack.push([inner, child, level + 1]);
      }
    }
  }
  return root;
}

/**
 * Levels of JSON nesting a check reads. JSON.parse itself reads any depth, but the tree of a 650 KB answer nested
 * 200 000 deep is 200 000 objects, built again by every check that reads the answer: the run's memory went past its
 * bound on such a target. No API answer nests anywhere near this; a deeper one is a finding naming its depth.
 */
export const MAX_READ_DEPTH = 1000;

/** Nesting depth of JSON text, from its brackets outside strings (no parse: a linear scan). */
export function textDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 /* [ */ || c === 123 /* { */) {
      if (++depth > deepest) deepest = depth;
    } else if (c === 93 /* ] */ || c === 125 /* } */) depth--;
  }
  return deepest;
}

/** The text nests deeper than a check reads (MAX_READ_DEPTH): too deep to read, or undefined. */
export function tooDeep(text: string): number | undefined {
  if (text.length <= MAX_READ_DEPTH * 2) return undefined;
  // Only an object or an array nests: text that opens with anything else is a scalar or not JSON (a 10 MB text
  // body need not be scanned).
  const first = /\S/.exec(text.slice(0, 4096))?.[0];
  if (first !== undefined && first !== '[' && first !== '{') return undefined;
  const depth = textDepth(text);
  return depth > MAX_READ_DEPTH ? depth : undefined;
}
