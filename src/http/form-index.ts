/**
 * Finds any of many literal strings (every encoded form of every known secret) in one pass over a text. A
 * single regex alternation of thousands of forms compiles in time that grows faster than linearly (a run that
 * obtained 200 tokens spent about a second compiling it, again after each new token), so this is a Rabin–Karp
 * index instead: the hash of each form's first KEY characters is a map key, the text's rolling hash is looked up
 * at every position, and a hit is confirmed with `startsWith`. Adding a form costs nothing later.
 */

/** Every form is at least this long (a secret of 6 characters or more has no shorter form: secret-encodings.ts). */
export const KEY = 6;
const BASE = 31;
/** BASE^(KEY-1), for removing the character that leaves the window. */
const HIGH = BASE ** (KEY - 1);

export interface FormHit {
  start: number;
  end: number;
  /** The form is a base64 fragment: the caller widens the hit to the whole token. */
  widen: boolean;
}

/** A raw piece of a secret: a hit is extended over the secret's characters on either side that the text repeats. */
export interface Along {
  secret: string;
  offset: number;
}

interface Form {
  text: string;
  widen: boolean;
  along?: Along;
}

export class FormIndex {
  readonly #byHash = new Map<number, Form[]>();
  readonly #seen = new Set<string>();

  get size(): number {
    return this.#seen.size;
  }

  add(text: string, widen: boolean, along?: Along): void {
    if (text.length < KEY || this.#seen.has(text)) return;
    this.#seen.add(text);
    const key = hashOf(text, 0);
    const bucket = this.#byHash.get(key);
    const form: Form = along ? { text, widen, along } : { text, widen };
    if (!bucket) this.#byHash.set(key, [form]);
    else {
      bucket.push(form);
      // Longest first: at one position the longest form wins (a token may contain a shorter secret).
      bucket.sort((a, b) => b.text.length - a.text.length);
    }
  }

  /** Leftmost, non-overlapping hits, in order. */
  find(text: string): FormHit[] {
    const hits: FormHit[] = [];
    if (this.#byHash.size === 0 || text.length < KEY) return hits;
    let i = 0;
    let h = hashOf(text, 0);
    while (true) {
      const bucket = this.#byHash.get(h);
      const form = bucket?.find((f) => text.startsWith(f.text, i));
      if (form) {
        const [start, end] = form.along ? extend(text, i, i + form.text.length, form.along, hits.at(-1)?.end ?? 0) : [i, i + form.text.length];
        hits.push({ start, end, widen: form.widen });
        i = end;
        if (i + KEY > text.length) break;
        h = hashOf(text, i);
        continue;
      }
      if (i + KEY >= text.length) break;
      h = roll(h, text.charCodeAt(i), text.charCodeAt(i + KEY));
      i += 1;
    }
    return hits;
  }
}

function hashOf(text: string, from: number): number {
  let h = 0;
  for (let k = 0; k < KEY; k++) h = (Math.imul(h, BASE) + text.charCodeAt(from + k)) | 0;
  return h;
}

function roll(h: number, out: number, inc: number): number {
  return (Math.imul(h - Math.imul(out, HIGH), BASE) + inc) | 0;
}

/** A piece's hit at [start, end), widened over the neighbouring characters of its secret that the text repeats too. */
function extend(text: string, start: number, end: number, along: Along, floor: number): [number, number] {
  const { secret, offset } = along;
  let s = start;
  let e = end;
  while (s > floor && offset - (start - s) > 0 && text[s - 1] === secret[offset - (start - s) - 1]) s -= 1;
  while (e < text.length && offset + (e - start) < secret.length && text[e] === secret[offset + (e - start)]) e += 1;
  return [s, e];
}
