/**
 * Reading k6's sample fields: its RFC 3339 times with nanoseconds, its CSV timestamps in any K6_CSV_TIME_FORMAT,
 * and a CSV record's fields as Go's encoding/csv writes them.
 */

/** k6 writes RFC 3339 times with nanoseconds; Date.parse keeps milliseconds, so the fraction is read here. */
export function timeParser(): (text: string) => number {
  let lastKey = '';
  let lastBase = NaN;
  return (text) => {
    // 2026-11-25T14:19:04.613097776Z or …+02:00: the whole seconds and the zone are parsed once per second.
    let end = 19;
    let fraction = 0;
    if (text.charCodeAt(19) === 46 /* . */) {
      end = 20;
      while (end < text.length && text.charCodeAt(end) >= 48 && text.charCodeAt(end) <= 57) end++;
      fraction = Number(`0${text.slice(19, end)}`) * 1000;
    }
    const key = text.slice(0, 19) + text.slice(end);
    if (key !== lastKey) {
      lastKey = key;
      lastBase = Date.parse(key);
    }
    return lastBase + fraction;
  };
}

/** k6 CSV timestamps: unix seconds by default (K6_CSV_TIME_FORMAT: unix_milli, unix_micro, unix_nano, rfc3339…). */
export function csvTime(text: string, parseTime: (t: string) => number): number {
  if (text.includes('T')) return parseTime(text);
  const n = Number(text);
  if (n < 1e11) return n * 1000;
  if (n < 1e14) return n;
  if (n < 1e17) return n / 1e3;
  return n / 1e6;
}

/** One CSV record's fields (RFC 4180 quoting, as Go's encoding/csv writes it). */
export function csvFields(line: string): string[] {
  if (!line.includes('"')) return line.split(',');
  const out: string[] = [];
  let i = 0;
  while (i <= line.length) {
    if (line[i] === '"') {
      let value = '';
      i++;
      for (;;) {
        const q = line.indexOf('"', i);
        if (q < 0) throw new Error('unterminated quoted field');
        value += line.slice(i, q);
        if (line[q + 1] === '"') {
          value += '"';
          i = q + 2;
        } else {
          i = q + 1;
          break;
        }
      }
      out.push(value);
      i++; // the comma
    } else {
      const c = line.indexOf(',', i);
      const stop = c < 0 ? line.length : c;
      out.push(line.slice(i, stop));
      i = stop + 1;
    }
  }
  return out;
}
