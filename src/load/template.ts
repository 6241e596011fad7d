/**
 * Request templating: `{{seq}}` and friends inside strings of a request's path, query, headers and body.
 * A template is compiled once (split into literal parts and generators) and rendered per request, so the hot
 * path is a string join. Substitution is textual: in a JSON body the value lands inside the string that holds it.
 *
 *   {{seq}}          1, 2, 3 … one sequence per scenario run, shared by all requests
 *   {{phone}}        a valid random phone number, ^[1-9][0-9]{6,14}$ (10 to 12 digits)
 *   {{uuid}}         a random RFC 4122 version-4 UUID
 *   {{timestamp}}    the current time, ISO 8601
 *   {{epochMs}}      the current time, ms since the epoch
 *   {{int A B}}      a random integer in [A, B]
 *   {{string N}}     N random letters and digits
 */
import { randomInt, type Random } from './random.ts';

export interface TemplateState {
  /** Last value handed out by {{seq}}. */
  seq: number;
  /** What {{seq}} adds each time: W when W workers share a run (worker i hands out i+1, i+1+W …), so values stay unique. @default 1 */
  seqStep?: number;
  random: Random;
  now: () => number;
}

type Part = string | ((state: TemplateState) => string);

export interface Template {
  /** True when the text holds no placeholder (render returns it unchanged). */
  readonly constant: boolean;
  render(state: TemplateState): string;
}

const PLACEHOLDER = /\{\{\s*([A-Za-z]+)((?:\s+[^\s}]+)*)\s*\}\}/g;
const ALNUM = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const HEX = '0123456789abcdef';

export const TEMPLATE_VARIABLES = ['seq', 'phone', 'uuid', 'timestamp', 'epochMs', 'int', 'string'] as const;

export function phoneNumber(random: Random): string {
  const length = randomInt(random, 10, 12);
  let out = String(randomInt(random, 1, 9));
  for (let i = 1; i < length; i++) out += String(Math.floor(random() * 10));
  return out;
}

export function uuidV4(random: Random): string {
  let out = '';
  for (let i = 0; i < 36; i++) {
    if (i === 8 || i === 13 || i === 18 || i === 23) out += '-';
    else if (i === 14) out += '4';
    else if (i === 19) out += HEX[8 + Math.floor(random() * 4)];
    else out += HEX[Math.floor(random() * 16)];
  }
  return out;
}

function generator(name: string, args: string[]): ((state: TemplateState) => string) | string {
  const wantArgs = (n: number): string | undefined =>
    args.length === n ? undefined : `{{${name}}} takes ${n === 0 ? 'no arguments' : `${n} argument${n > 1 ? 's' : ''}`}, got ${args.length}`;
  switch (name) {
    case 'seq':
      return wantArgs(0) ?? ((s) => String((s.seq += s.seqStep ?? 1)));
    case 'phone':
      return wantArgs(0) ?? ((s) => phoneNumber(s.random));
    case 'uuid':
      return wantArgs(0) ?? ((s) => uuidV4(s.random));
    case 'timestamp':
      return wantArgs(0) ?? ((s) => new Date(s.now()).toISOString());
    case 'epochMs':
      return wantArgs(0) ?? ((s) => String(Math.floor(s.now())));
    case 'int': {
      const problem = wantArgs(2);
      if (problem) return problem;
      const [min, max] = args.map(Number) as [number, number];
      if (!Number.isInteger(min) || !Number.isInteger(max) || min > max) return `{{int A B}} needs whole numbers A <= B, got "${args.join(' ')}"`;
      return (s) => String(randomInt(s.random, min, max));
    }
    case 'string': {
      const problem = wantArgs(1);
      if (problem) return problem;
      const n = Number(args[0]);
      if (!Number.isInteger(n) || n < 1 || n > 10_000) return `{{string N}} needs a length 1..10000, got "${args[0]}"`;
      return (s) => {
        let out = '';
        for (let i = 0; i < n; i++) out += ALNUM[Math.floor(s.random() * ALNUM.length)];
        return out;
      };
    }
    default:
      return `unknown placeholder {{${name}}} (known: ${TEMPLATE_VARIABLES.map((v) => `{{${v}}}`).join(', ')})`;
  }
}

/** A placeholder as written: its name and arguments. */
export interface Placeholder {
  name: string;
  args: string[];
}

/** `text` as literal strings and placeholders, in order (the k6 exporter turns placeholders into code). */
export function tokenizeTemplate(text: string): Array<string | Placeholder> {
  const out: Array<string | Placeholder> = [];
  let last = 0;
  for (const match of text.matchAll(PLACEHOLDER)) {
    if (match.index > last) out.push(text.slice(last, match.index));
    out.push({ name: match[1] as string, args: (match[2] ?? '').trim().split(/\s+/).filter(Boolean) });
    last = match.index + match[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

/** Compiles `text`; an unknown placeholder or bad argument is a problem (returned, every one). */
export function compileTemplate(text: string): { template: Template; problems: string[] } {
  const parts: Part[] = [];
  const problems: string[] = [];
  for (const token of tokenizeTemplate(text)) {
    if (typeof token === 'string') {
      parts.push(token);
      continue;
    }
    const made = generator(token.name, token.args);
    if (typeof made === 'string') problems.push(made);
    else parts.push(made);
  }
  const constant = parts.every((p) => typeof p === 'string');
  const fixed = constant ? parts.join('') : '';
  return {
    problems,
    template: {
      constant,
      render: constant
        ? () => fixed
        : (state) => {
            let out = '';
            for (const part of parts) out += typeof part === 'string' ? part : part(state);
            return out;
          },
    },
  };
}

export function newTemplateState(random: Random, now: () => number = Date.now): TemplateState {
  return { seq: 0, random, now };
}
