/**
 * RFC 6901 JSON pointers, shared by the declarative suites' captures (suites/declarative) and the load flows'
 * captures (src/load/flow), so both read a value the same way.
 */

/** What `atPointer` returns when nothing is there (null is a value). */
export const MISSING = Symbol('missing');

/** Value at a JSON pointer (RFC 6901), or `MISSING`. */
export function atPointer(root: unknown, pointer: string): unknown {
  if (pointer === '') return root;
  let node: unknown = root;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node) && /^\d+$/.test(key) && Number(key) < node.length) node = node[Number(key)];
    else if (node && typeof node === 'object' && !Array.isArray(node) && Object.hasOwn(node, key)) node = (node as Record<string, unknown>)[key];
    else return MISSING;
  }
  return node;
}
