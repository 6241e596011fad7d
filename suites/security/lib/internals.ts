/**
 * What an error body must not show (OWASP API8:2023): a stack trace (JavaScript, Python, Java/.NET, Go, Ruby,
 * PHP forms), a source file path, or an internal exception name. Each pattern names what it found, quoted
 * briefly, so a report says what leaked without repeating the whole body.
 */
const PATTERNS: ReadonlyArray<[string, RegExp]> = [
  ['a JavaScript stack frame', /\bat (?:[\w$.<>[\] ]+ )?\(?(?:file:\/\/|node:|\/|[A-Za-z]:\\)[^\s)]*:\d+:\d+\)?/],
  ['a Python traceback', /Traceback \(most recent call last\)|File "[^"]+", line \d+/],
  ['a Java or .NET stack frame', /\bat [\w$.]+\([\w$]+\.(?:java|cs|kt|scala):\d+\)|\bat [\w.]+\.[\w<>]+\(.*\) in .+:line \d+/],
  ['a Go panic', /\bgoroutine \d+ \[|panic: /],
  ['a Ruby or PHP trace', /\.rb:\d+:in `|\.php(?: on line |:)\d+|Stack trace:\s*#0/],
  ['a source file path', /(?:\/(?:[\w.@-]+\/)+|[A-Za-z]:\\(?:[\w.@ -]+\\)+)[\w.@-]+\.(?:m?[jt]sx?|cjs|py|rb|php|java|go|cs|kt|scala)\b|node_modules[\\/]/],
  ['an exception name', /\b(?:TypeError|ReferenceError|SyntaxError|RangeError|EvalError|URIError|AggregateError|[A-Z]\w*Exception)\b/],
];

export function internalsIn(body: string): string[] {
  const found: string[] = [];
  for (const [what, pattern] of PATTERNS) {
    const match = pattern.exec(body);
    if (match) found.push(`${what} (${JSON.stringify(match[0].slice(0, 80))})`);
  }
  return found;
}
