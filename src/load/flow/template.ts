/**
 * Flow templates: the request templates of src/load/template.ts ({{seq}}, {{phone}} …) plus the iteration's
 * variables ({{token}}, {{next}}), which a step captured or `vars` set. A variable is rendered escaped for where
 * it lands (a path segment is percent-encoded, a JSON body string JSON-escaped), so a captured value can never
 * break the request it is put into.
 */
import { compileTemplate, tokenizeTemplate, TEMPLATE_VARIABLES, type Template, type TemplateState } from '../template.ts';

/** The template state of a flow: the shared generators' state plus the running iteration's variables. */
export interface FlowState extends TemplateState {
  /** The iteration being rendered (set before each render: renders are synchronous). */
  vars: Record<string, unknown>;
}

export type Escape = 'path' | 'json' | 'raw';

const ESCAPES: Record<Escape, (text: string) => string> = {
  path: encodeURIComponent,
  json: (text) => JSON.stringify(text).slice(1, -1),
  raw: (text) => text,
};

/** A captured value as text: null and absent as "", objects as JSON. */
export function varText(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

export function isVariableName(name: string): boolean {
  return !(TEMPLATE_VARIABLES as readonly string[]).includes(name);
}

/** Variables that `text` uses, in order (placeholders that are not generators). */
export function variablesIn(text: string): string[] {
  return tokenizeTemplate(text).flatMap((t) => (typeof t !== 'string' && isVariableName(t.name) && t.args.length === 0 ? [t.name] : []));
}

/**
 * Compiles `text`. A placeholder that names a variable in `known` renders the iteration's value; others are the
 * generators (their problems are returned); an unknown variable is a problem naming what is known.
 */
export function compileFlowTemplate(text: string, known: ReadonlySet<string>, escape: Escape): { template: Template; problems: string[] } {
  const problems: string[] = [];
  const parts: Array<string | Template | { variable: string }> = [];
  for (const token of tokenizeTemplate(text)) {
    if (typeof token === 'string') parts.push(token);
    else if (isVariableName(token.name) && token.args.length === 0) {
      if (!known.has(token.name)) problems.push(`{{${token.name}}} is not set by vars or captured by an earlier step${known.size ? ` (known here: ${[...known].join(', ')})` : ''}`);
      parts.push({ variable: token.name });
    } else {
      const made = compileTemplate(`{{${token.name}${token.args.map((a) => ` ${a}`).join('')}}}`);
      for (const problem of made.problems) problems.push(problem);
      parts.push(made.template);
    }
  }
  if (parts.every((p) => typeof p === 'string')) {
    const fixed = parts.join('');
    return { problems, template: { constant: true, render: () => fixed } };
  }
  const esc = ESCAPES[escape];
  return {
    problems,
    template: {
      constant: false,
      render: (state) => {
        let out = '';
        for (const part of parts) {
          if (typeof part === 'string') out += part;
          else if ('variable' in part) out += esc(varText((state as FlowState).vars[part.variable]));
          else out += part.render(state);
        }
        return out;
      },
    },
  };
}
