/**
 * The globalSetup's decision on a fresh machine (a real apt-get install is too slow and too invasive for a unit
 * test, so the machine is described, not changed): install when missing and root, say what to install otherwise.
 */
import { describe, expect, it } from 'vitest';
import { CHROMIUM, ensureChromium, INSTALL_HINT, type EnsureDeps } from '../../setup/chromium.ts';

function machine(over: Partial<EnsureDeps> & { files?: string[]; exits?: number[] }) {
  const files = new Set(over.files ?? ['/usr/bin/apt-get']);
  const exits = [...(over.exits ?? [0, 0])];
  const ran: string[] = [];
  const said: string[] = [];
  const deps: EnsureDeps = {
    exists: (p) => files.has(p),
    isRoot: true,
    env: {},
    run: (command, args) => {
      ran.push(`${command} ${args.join(' ')}`);
      const code = exits.shift() ?? 0;
      if (args.includes('chromium') && code === 0) files.add(CHROMIUM);
      return code;
    },
    say: (line) => said.push(line),
    ...over,
  };
  return { deps, ran, said };
}

describe('ensureChromium', () => {
  it('does nothing when Chromium is there', () => {
    const m = machine({ files: [CHROMIUM] });
    expect(ensureChromium(m.deps)).toBe('present');
    expect(m.ran).toEqual([]);
  });

  it('installs it with apt-get when missing and root, saying so', () => {
    const m = machine({});
    expect(ensureChromium(m.deps)).toBe('installed');
    expect(m.ran).toEqual(['apt-get update -qq', 'apt-get install -y -qq --no-install-recommends chromium']);
    expect(m.said.at(-1)).toBe('[browser tests] chromium installed');
  });

  it('says exactly what to install when it cannot (not root, opted out, or apt-get failed)', () => {
    for (const m of [machine({ isRoot: false }), machine({ env: { HARNESS_NO_BROWSER_INSTALL: '1' } }), machine({ exits: [100] })]) {
      expect(ensureChromium(m.deps)).toBe('missing');
      expect(m.said.at(-1)).toContain(INSTALL_HINT);
    }
  });
});
