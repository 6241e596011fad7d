/**
 * Key path → line and column in the YAML source. The parsed Document keeps every node's source range, so a
 * message can point at the exact key or value instead of "somewhere in the file".
 */
import { isAlias, isMap, isScalar, isSeq, type Document, type LineCounter, type Node } from 'yaml';
import type { KeyPath } from './key-path.ts';

export interface Position {
  line: number;
  column: number;
}

interface Found {
  /** The value node at the path (may be absent for `key:` with nothing after it). */
  value?: Node;
  /** The key node of the last mapping step, when the last step was a mapping key. */
  key?: Node;
}

function find(doc: Document, path: KeyPath): Found | undefined {
  let node: unknown = doc.contents;
  let key: Node | undefined;
  for (const segment of path) {
    if (isAlias(node)) node = node.resolve(doc);
    if (isMap(node)) {
      const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === String(segment));
      if (!pair) return undefined;
      key = pair.key as Node;
      node = pair.value;
    } else if (isSeq(node) && typeof segment === 'number') {
      node = node.items[segment];
      key = undefined;
      if (node === undefined) return undefined;
    } else {
      return undefined;
    }
  }
  return { value: (node ?? undefined) as Node | undefined, key };
}

/** Does the document hold a (non-empty) value at `path`? */
export function hasNode(doc: Document, path: KeyPath): boolean {
  const found = find(doc, path);
  return found?.value !== undefined && !(isScalar(found.value) && found.value.value === null);
}

/**
 * Position of the value at `path` (or of its key with `atKey`, or when the value is empty); undefined when
 * the document does not contain the path.
 */
export function locate(doc: Document, lines: LineCounter, path: KeyPath, atKey = false): Position | undefined {
  const found = find(doc, path);
  if (!found) return undefined;
  const valueHasSource = found.value?.range && !(isScalar(found.value) && found.value.value === null);
  const node = atKey || !valueHasSource ? (found.key ?? found.value) : found.value;
  const offset = node?.range?.[0];
  return offset === undefined ? undefined : positionOf(lines, offset);
}

export function positionOf(lines: LineCounter, offset: number): Position {
  const { line, col } = lines.linePos(offset);
  return { line, column: col };
}
