import { describe, expect, it } from 'vitest';
import { BODY_OPERATIONS, hostileBodies, INPUTS_SEED, invalidBodies, type BodyOperationSpec } from '../../../../suites/inputs/lib/generate-bodies.ts';

/** A spec equal to `spec` but another object: its bodies are made afresh, not taken from what `spec` made. */
const copyOf = (spec: BodyOperationSpec): BodyOperationSpec => ({ ...spec });

describe('mutated bodies are made once per spec, schema, seed and kept forms', () => {
  it('a second ask (another rule family, the hostile check) gets the very bodies of the first', () => {
    const spec = BODY_OPERATIONS.createWebhook;
    const first = invalidBodies(spec);
    const again = invalidBodies(spec);
    expect(again.length).toBeGreaterThan(0);
    again.forEach((c, i) => expect(c.body).toBe(first[i]!.body));
    const hostile = hostileBodies(spec);
    expect(hostile.length).toBeGreaterThan(0);
    hostile.forEach((h, i) => expect(h.body).toBe(hostileBodies(spec)[i]!.body));
  });

  it('what is reused equals what is made afresh', () => {
    for (const spec of Object.values(BODY_OPERATIONS)) {
      expect(JSON.stringify(invalidBodies(spec))).toBe(JSON.stringify(invalidBodies(copyOf(spec))));
      expect(JSON.stringify(hostileBodies(spec).map((h) => h.kind))).toBe(JSON.stringify(hostileBodies(copyOf(spec)).map((h) => h.kind)));
    }
  });

  it('another seed or other kept forms get bodies of their own', () => {
    const spec = BODY_OPERATIONS.sendMessage;
    const all = invalidBodies(spec).map((c) => c.kind);
    const textOnly = invalidBodies(spec, { branch: (name) => name === 'text' }).map((c) => c.kind);
    expect(textOnly.every((k) => k.startsWith('text form:'))).toBe(true);
    expect(all.some((k) => !k.startsWith('text form:'))).toBe(true);
    const otherSeed = invalidBodies(spec, { seed: INPUTS_SEED + 7 });
    expect(JSON.stringify(otherSeed)).not.toBe(JSON.stringify(invalidBodies(spec)));
    expect(JSON.stringify(otherSeed)).toBe(JSON.stringify(invalidBodies(copyOf(spec), { seed: INPUTS_SEED + 7 })));
  });
});
