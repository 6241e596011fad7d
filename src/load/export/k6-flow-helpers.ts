/**
 * The helper functions an exported flow script may call (src/load/export/k6-flow.ts), in both languages from one
 * text: `t(': string')` is the annotation in TypeScript and nothing in JavaScript, so the TypeScript export is the
 * JavaScript one with types. A script holds only the helpers its code calls (and the ones those call): TypeScript
 * with noUnusedLocals, as `tsc --strict` projects often set it, refuses an unused function.
 */

/** The annotation in TypeScript, nothing in JavaScript. */
export type Annotate = (annotation: string) => string;

interface Helper {
  /** How code calls it (or reads it): the helper is emitted when this matches the script's other code. */
  used: RegExp;
  code(t: Annotate): string;
}

const HELPERS: readonly Helper[] = [
  {
    used: /\bphone\(/,
    code: (t) => `function phone()${t(': string')} {
  var length = 10 + Math.floor(Math.random() * 3);
  var out = String(1 + Math.floor(Math.random() * 9));
  for (var i = 1; i < length; i++) out += String(Math.floor(Math.random() * 10));
  return out;
}`,
  },
  {
    used: /\buuid\(/,
    code: (t) => `function uuid()${t(': string')} {
  return 'xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx'.replace(/[xy]/g, function (c${t(': string')}) {
    var r = Math.floor(Math.random() * 16);
    return (c === 'x' ? r : 8 + (r % 4)).toString(16);
  });
}`,
  },
  {
    used: /\brandomInt\(/,
    code: (t) => `function randomInt(min${t(': number')}, max${t(': number')})${t(': number')} {
  return min + Math.floor(Math.random() * (max - min + 1));
}`,
  },
  {
    used: /\brandomString\(/,
    code: (t) => `function randomString(n${t(': number')})${t(': string')} {
  var chars = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  var out = '';
  for (var i = 0; i < n; i++) out += chars[Math.floor(Math.random() * chars.length)];
  return out;
}`,
  },
  {
    used: /\bMISSING\b/,
    code: (t) => `/** What a JSON pointer lookup gives where nothing is there (null is a value). */
var MISSING${t(': object')} = {};`,
  },
  {
    used: /\bpointer\(/,
    code: (t) => `/** RFC 6901 JSON pointer; MISSING when nothing is there (null is a value). */
function pointer(root${t(': unknown')}, p${t(': string')})${t(': unknown')} {
  if (p === '') return root;
  var node${t(': unknown')} = root;
  var parts = p.slice(1).split('/');
  for (var i = 0; i < parts.length; i++) {
    var key = parts[i].replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node) && /^\\d+$/.test(key) && Number(key) < node.length) node = node[Number(key)];
    else if (node !== null && typeof node === 'object' && !Array.isArray(node) && Object.prototype.hasOwnProperty.call(node, key)) node = (node${t(' as Record<string, unknown>')})[key];
    else return MISSING;
  }
  return node;
}`,
  },
  {
    used: /\btext\(/,
    code: (t) => `/** A variable as text (null and absent as ""), as the harness renders it. */
function text(v${t(': unknown')})${t(': string')} {
  if (v === null || v === undefined) return '';
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}`,
  },
  {
    used: /\bjsonText\(/,
    code: (t) => `function jsonText(v${t(': unknown')})${t(': string')} {
  return JSON.stringify(text(v)).slice(1, -1);
}`,
  },
  {
    used: /\bpresent\(/,
    code: (t) => `function present(v${t(': unknown')})${t(': boolean')} {
  return v !== null && v !== undefined && v !== '';
}`,
  },
  {
    used: /\bheader\(/,
    code: (t) => `function header(res${t(': Response')}, name${t(': string')})${t(': string | undefined')} {
  for (var k in res.headers) if (k.toLowerCase() === name) return res.headers[k];
  return undefined;
}`,
  },
  {
    used: /\bthink\(/,
    code: (t) => `function think(min${t(': number')}, max${t(': number')})${t(': void')} {
  sleep((min + Math.random() * (max - min)) / 1000);
}`,
  },
];

/** The helpers `code` needs, each once, in a fixed order: those it calls, and those they call. */
export function flowHelpers(code: string, t: Annotate): string[] {
  const chosen = new Set<Helper>();
  let scanned = code;
  for (let grew = true; grew; ) {
    grew = false;
    for (const helper of HELPERS) {
      if (chosen.has(helper) || !helper.used.test(scanned)) continue;
      chosen.add(helper);
      scanned += `\n${helper.code(t)}`;
      grew = true;
    }
  }
  return HELPERS.filter((h) => chosen.has(h)).map((h) => h.code(t));
}
