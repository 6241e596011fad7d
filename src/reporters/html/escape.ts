/**
 * The two ways text reaches report.html. Everything a target sent (bodies, headers, messages) travels only as
 * JSON data and is put on the page with textContent by the client script; the template itself interpolates only
 * a few harness-made strings, and escapes those too in case a run id or title ever carries markup.
 */

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for an HTML text node or a double-quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => HTML_ESCAPES[ch] ?? ch);
}

/**
 * JSON for a `<script type="application/json">` element. The HTML parser ends a script at `</script` whatever
 * the type, and `<!--` changes how it scans, so every `<` becomes `\u003c` (and `>`/`&` too, for good measure).
 * U+2028/U+2029 are escaped because some JavaScript parsers read them as line ends. JSON.parse reads all of
 * these escapes back to the original characters.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/**
 * Inlined JavaScript (the chart library, our client code) must not contain `</script`, or the page would end
 * the script there. `<\/` means the same inside JS strings and regexes, the only places it can occur.
 */
export function scriptSafe(source: string): string {
  return source.replace(/<\/(script)/gi, '<\\/$1');
}
