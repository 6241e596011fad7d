/**
 * Every key a schema knows, with the full path where it belongs, so an unknown key that exists at another level
 * (a top-level `baseUrl:`) gets "did you mean "target.baseUrl"?" instead of a bare "unknown key".
 */
import { suggestKey } from '../util/suggest.ts';
import type { SchemaNode } from './schema.ts';

const cache = new WeakMap<SchemaNode, Map<string, string[]>>();

/** Key name → dotted paths where the schema declares it (maps of user-chosen names are not descended). */
function index(root: SchemaNode): Map<string, string[]> {
  let found = cache.get(root);
  if (found) return found;
  found = new Map();
  const walk = (node: SchemaNode, prefix: string, depth: number): void => {
    if (depth > 12) return;
    for (const [name, child] of Object.entries(node.properties ?? {})) {
      const path = prefix ? `${prefix}.${name}` : name;
      found!.set(name, [...(found!.get(name) ?? []), path]);
      walk(child, path, depth + 1);
    }
    if (node.items && typeof node.items === 'object') walk(node.items, `${prefix}[]`, depth + 1);
  };
  walk(root, '', 0);
  cache.set(root, found);
  return found;
}

/**
 * The full path of the key `key` (or its nearest spelling) elsewhere in the schema, when exactly one place holds
 * it and that place is not where the key was written (`here`, dotted). Undefined otherwise: a wrong hint is worse
 * than none.
 */
export function suggestPathElsewhere(root: SchemaNode, key: string, here: string): string | undefined {
  const byName = index(root);
  const name = byName.has(key) ? key : suggestKey(key, byName.keys());
  if (name === undefined) return undefined;
  const paths = (byName.get(name) ?? []).filter((path) => path !== (here ? `${here}.${name}` : name) && !path.includes('[]'));
  return paths.length === 1 ? paths[0] : undefined;
}
