/**
 * XML 1.0 text and attribute escaping. Target data can hold any character, and JUnit consumers (Jenkins,
 * GitLab, GitHub test reporters) reject the whole file on one invalid character, so characters XML 1.0 does
 * not allow at all (most C0 controls, lone surrogates, U+FFFE/U+FFFF) are removed before escaping.
 */

/** Everything outside #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]. */
const INVALID_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

export function stripInvalidXml(text: string): string {
  return text.replace(INVALID_XML, '');
}

/** For element content. `>` is escaped too so `]]>` can never appear. */
export function xmlText(text: string): string {
  return stripInvalidXml(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** For a double-quoted attribute. Tabs and line ends become references, or parsers would normalise them to spaces. */
export function xmlAttr(text: string): string {
  return xmlText(text).replace(/"/g, '&quot;').replace(/\t/g, '&#9;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;');
}

/** `<name a="1" b="2">` attributes, escaped, in the order given; undefined values are left out. */
export function attrs(values: Record<string, string | number | undefined>): string {
  return Object.entries(values)
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    .map(([name, value]) => ` ${name}="${xmlAttr(String(value))}"`)
    .join('');
}
