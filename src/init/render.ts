/**
 * The config file init writes: a header, the target, the credentials as `${HARNESS_*}` references, then one entry
 * per choice with its evidence and whether it departs from PROFILE.md, in the order of the config reference.
 */
import { stringify } from 'yaml';
import { defaultConfig } from '../config/index.ts';
import type { Choice } from './choices.ts';
import { CREDENTIAL_REFS } from './credentials.ts';

interface Node {
  children: Map<string, Node>;
  choice?: Choice;
}

function flatKeys(value: unknown, prefix: string, out: string[]): string[] {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) {
      out.push(prefix + k);
      flatKeys(v, `${prefix}${k}.`, out);
    }
  }
  return out;
}

function valueAt(root: unknown, key: string): unknown {
  return key.split('.').reduce<unknown>((node, part) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined), root);
}

const yamlValue = (value: unknown): string => stringify(value, { collectionStyle: 'flow', lineWidth: 0 }).trim();
const oneLine = (text: string): string => text.replace(/[\r\n]+/g, ' ');

function profileSays(defaults: unknown, choice: Choice): string {
  const profile = valueAt(defaults, choice.key);
  if (profile === undefined) return 'PROFILE.md leaves it unset: describes your target';
  if (JSON.stringify(profile) === JSON.stringify(choice.value)) return 'same as PROFILE.md';
  return `departs from PROFILE.md (${yamlValue(profile)})`;
}

export interface RenderInput {
  baseUrl?: string;
  source: string;
  choices: readonly Choice[];
  notes: readonly string[];
}

export function renderConfig(input: RenderInput): string {
  const defaults = defaultConfig();
  const order = flatKeys(defaults, '', []);
  const rank = (key: string): number => {
    const exact = order.indexOf(key);
    if (exact >= 0) return exact;
    const parent = key.split('.').slice(0, -1).join('.');
    const next = order.findIndex((k, i) => i > order.indexOf(parent) && !k.startsWith(`${parent}.`));
    return (next < 0 ? order.length : next) - 0.5;
  };
  const root: Node = { children: new Map() };
  for (const choice of [...input.choices].sort((a, b) => rank(a.key) - rank(b.key))) {
    let node = root;
    for (const part of choice.key.split('.')) {
      if (!node.children.has(part)) node.children.set(part, { children: new Map() });
      node = node.children.get(part)!;
    }
    node.choice = choice;
  }
  const lines: string[] = [
    '# harness.config.yaml drafted by `harness init` — review it, then: harness run --config <this file>',
    `# Sources: ${oneLine(input.source)}.`,
    '# Each choice below names its evidence (the request and what answered, or the document\'s JSON pointer) and',
    '# whether it departs from PROFILE.md. Keys not written keep PROFILE.md\'s defaults, so the run still checks them.',
    '# Nothing MUST can be described here: a MUST fault is reported whatever this file says.',
  ];
  if (input.notes.length > 0) {
    lines.push('#', '# Seen, but no config key describes it (the run checks it at PROFILE.md\'s default):');
    for (const note of input.notes) lines.push(`#   - ${oneLine(note)}`);
  }
  lines.push('', 'target:');
  if (input.baseUrl) lines.push(`  baseUrl: ${yamlValue(input.baseUrl)}`);
  else lines.push('  # baseUrl: https://api.example.com   (pass --target to the run, or set it here)');
  lines.push('', '# Credentials come from the environment (the names `harness serve` prints); this file holds no value.');
  lines.push(...stringify({ credentials: CREDENTIAL_REFS }, { lineWidth: 0 }).trimEnd().split('\n'));
  const emit = (node: Node, depth: number): void => {
    for (const [name, child] of node.children) {
      const indent = '  '.repeat(depth);
      if (child.choice) {
        lines.push(`${indent}# ${oneLine(child.choice.evidence)} — ${profileSays(defaults, child.choice)}`);
        lines.push(`${indent}${name}: ${yamlValue(child.choice.value)}`);
      } else {
        if (depth === 0) lines.push('');
        lines.push(`${indent}${name}:`);
        emit(child, depth + 1);
      }
    }
  };
  emit(root, 0);
  return `${lines.join('\n')}\n`;
}
