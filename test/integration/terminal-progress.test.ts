/**
 * The terminal as a person sees it, in a pseudo-terminal of 80 columns (util-linux `script`): the live check line
 * (done/total, elapsed, the current check) and the load progress line fit the width with their counts whole, the
 * check line ends before the load phase (nothing written onto it, no redraw during load), the load line is one row
 * redrawn in place, and CROSSED/FAIL are coloured; piped (no TTY), nothing is coloured and no live line is drawn.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { CheckProgress, fitLine } from '../../src/reporters/check-progress.ts';

const DEMO = 'test/fixtures/terminal/progress-demo.ts';
const ESC = String.fromCharCode(27);
const ANSI = new RegExp(`${ESC}\\[[0-9;]*[A-Za-z]`, 'g');

/** Runs the demo under `script` with an 80-column pty; returns the raw bytes it wrote. */
function underPty(): string {
  const hasScript = spawnSync('script', ['--version']).status === 0;
  if (!hasScript) throw new Error('util-linux `script` is missing: apt-get install -y util-linux (it makes the pseudo-terminal)');
  return execFileSync('script', ['-qfec', `stty cols 80 rows 24; env -u CI -u NO_COLOR node --import tsx ${DEMO}`, '/dev/null'], { encoding: 'utf8', timeout: 60_000 });
}

describe('progress in a pseudo-terminal at 80 columns', () => {
  const raw = underPty();
  /** Every piece of text drawn after a line clear or a carriage return: what stays visible on one row. */
  const segments = raw.split(/\r|\n/).map((s) => s.replace(ANSI, '')).filter((s) => s.length > 0);

  it('draws live check lines with done/total, elapsed and the current check, shortened to fit', () => {
    const live = segments.filter((s) => s.startsWith('checks '));
    expect(live.length).toBeGreaterThanOrEqual(3);
    for (const line of live) {
      expect(line.length, line).toBeLessThanOrEqual(79);
      expect(line).toMatch(/^checks \d\/3 · \d+:\d\d elapsed/);
    }
    expect(live.some((l) => /· webhooks\.delivery-retries.*…$/.test(l))).toBe(true);
  });

  it('ends the live check line before the load phase: "scenarios:" starts its own row and no check line follows', () => {
    const at = segments.findIndex((s) => s.includes('scenarios: '));
    expect(at, segments.join('\n')).toBeGreaterThan(0);
    // Not "…no-server-errorsscenarios: …": the line was ended, not written over.
    expect(segments[at]).toMatch(/^scenarios: /);
    expect(segments.slice(at).filter((s) => s.startsWith('checks ')), segments.slice(at).join('\n')).toEqual([]);
    // The check line was live up to the end of the checks: it was redrawn while the last check ran.
    expect(segments.slice(0, at).filter((s) => /· standing\.no-server-errors$/.test(s)).length).toBeGreaterThanOrEqual(2);
  });

  it('draws the load progress as one row redrawn in place, with requests, rate, p99 and dropped, ended before the summary', () => {
    const start = raw.indexOf('scenarios: ');
    const end = raw.indexOf('scenario a-scenario (constant-arrival-rate)');
    expect(start).toBeGreaterThan(0);
    expect(end).toBeGreaterThan(start);
    const phase = raw.slice(raw.indexOf('\n', start) + 1, end);
    // Every draw starts with a carriage return and a line clear; no newline in between: one row, redrawn.
    const draws = phase.split(`\r${ESC}[2K`).map((d) => d.replace(ANSI, '')).filter((d) => d.length > 0);
    expect(draws.length, JSON.stringify(phase)).toBe(4);
    expect(phase).not.toContain('\n');
    for (const draw of draws) {
      expect(draw.length, draw).toBeLessThanOrEqual(79);
      expect(draw).toMatch(/ 2345\/s p99 12\.5ms req \d+ fail 17 429 429 drop 3$/);
    }
    expect(draws.map((d) => /req (\d+)/.exec(d)![1])).toEqual(['123000', '123152', '123304', '123456']);
    // The row is cleared before the summary line is written: the summary starts at column 0.
    expect(raw.slice(0, end).endsWith(`\r${ESC}[2K`)).toBe(true);
  });

  it('fits the load progress line with every count whole', () => {
    const line = segments.find((s) => s.includes('req 123456'))!;
    expect(line, segments.join('\n')).toBeDefined();
    expect(line.length).toBeLessThanOrEqual(79);
    expect(line).toMatch(/req 123456 fail 17 429 429 drop 3$/);
  });

  it('colours FAIL and the verdict of a crossed threshold on the TTY', () => {
    expect(raw).toContain(`${ESC}[31mFAIL`);
    expect(raw).toContain(`${ESC}[31mverdict: CERTIFIED — thresholds crossed (exit 99)`);
  });

  it('piped: no colour, no live line', () => {
    const piped = execFileSync('node', ['--import', 'tsx', DEMO], { encoding: 'utf8', env: { ...process.env, CI: '' }, timeout: 60_000 });
    expect(piped).not.toContain(ESC);
    expect(piped).not.toMatch(/^checks \d/m);
    expect(piped).toContain('verdict: CERTIFIED — thresholds crossed (exit 99)');
  });
});

describe('check progress without a TTY', () => {
  it('prints a plain line at most every 15 s, naming the count and the last check', () => {
    let now = 0;
    const out: string[] = [];
    const p = new CheckProgress({ write: (t) => out.push(t), live: false, now: () => now });
    p.start(4);
    for (const id of ['a.one', 'a.two', 'a.three']) {
      p.checkStarted(id);
      now += 8_000;
      p.checkFinished();
    }
    expect(out).toEqual(['progress: checks 2/4 · 0:16 elapsed, last: a.two\n']);
  });

  it('fitLine shortens the name and never the counts', () => {
    expect(fitLine('checks 3/147 · 0:12 elapsed', 'x'.repeat(100), 80)).toHaveLength(79);
    expect(fitLine('checks 3/147 · 0:12 elapsed', 'short', 80)).toBe('checks 3/147 · 0:12 elapsed · short');
    expect(fitLine('checks 3/147 · 0:12 elapsed', 'anything', 20)).toBe('checks 3/147 · 0:12 elapsed');
  });
});
