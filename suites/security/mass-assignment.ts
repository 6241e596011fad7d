/**
 * Mass assignment (OWASP API3:2023, broken object property level authorization): a create never takes over a
 * field the server sets (`id`, `status`, `created_at`, `recipients_count`, an owner) or one the API does not
 * have. "Never taken over" is SHOULD (OWASP's prevention: "avoid functions that automatically bind a client's
 * input into … internal objects"); PROFILE.md's exact answer — 400 naming each such field — is PROFILE.
 */
import { defineCheck, fail, skip } from '../../src/conformance/check.ts';
import type { CheckContext } from '../../src/conformance/context.ts';
import { CREATE_CASES, sendCreate, takenOver, type CreateCase } from './creates.ts';

function available(ctx: CheckContext): CreateCase[] {
  const cases = CREATE_CASES.filter((c) => c.unavailable(ctx) === undefined);
  if (cases.length === 0) skip(`no create this target offers can be tried: ${CREATE_CASES.map((c) => `${c.operation} (${c.unavailable(ctx)})`).join(', ')}`);
  return cases;
}

export const massAssignmentNotTakenOver = defineCheck({
  id: 'security.mass-assignment.not-taken-over',
  suite: 'security',
  title: 'A create never takes over privileged or unknown fields: neither its answer nor a later read carries the value sent',
  level: 'SHOULD',
  specRef: 'OWASP API Security Top 10 2023 API3 (Broken Object Property Level Authorization: mass assignment)',
  clauses: ['§2.1', '§2.5', '§6'],
  owasp: ['API3:2023'],
  async run(ctx) {
    const findings: string[] = [];
    for (const c of available(ctx)) {
      const assigned = c.assigned();
      const { accepted, answer, read } = await sendCreate(ctx, c, assigned);
      if (!accepted) continue;
      const inAnswer = takenOver(answer, assigned);
      const inRead = takenOver(read, assigned);
      if (inAnswer.length) findings.push(`${c.operation} answer carries ${inAnswer.map((f) => `${f}=${JSON.stringify(assigned[f])}`).join(', ')}`);
      if (inRead.length) findings.push(`${c.operation} read afterwards carries ${inRead.map((f) => `${f}=${JSON.stringify(assigned[f])}`).join(', ')}`);
    }
    if (findings.length) fail(`fields the client may not set were taken over — ${findings.join('; ')}`, { expected: 'ignored or rejected', actual: findings });
  },
});

/** Field names a problem's errors[] points at (`path`, `pointer`, `field` or `name`, as "/x", "#/x" or "x"). */
function namedFields(body: unknown): Set<string> {
  const errors = (body as { errors?: unknown } | undefined)?.errors;
  const names = new Set<string>();
  if (!Array.isArray(errors)) return names;
  for (const error of errors as Array<Record<string, unknown>>) {
    for (const key of ['path', 'pointer', 'field', 'name']) {
      const value = error?.[key];
      if (typeof value === 'string') names.add(value.replace(/^#?\/?/, '').split('/').pop() ?? value);
    }
  }
  return names;
}

export const massAssignmentRejected = defineCheck({
  id: 'security.mass-assignment.rejected-naming-fields',
  suite: 'security',
  title: 'A create with privileged or unknown fields is refused with 400 whose errors[] names each of them',
  level: 'PROFILE',
  specRef: 'PROFILE Accounts, ownership and exposure ("privileged fields … and unknown fields get 400 naming each"); OWASP API Security Top 10 2023 API3',
  clauses: ['§2.1', '§2.5', '§6'],
  owasp: ['API3:2023'],
  async run(ctx) {
    const findings: string[] = [];
    for (const c of available(ctx)) {
      const assigned = c.assigned();
      const { response } = await sendCreate(ctx, c, assigned);
      if (response.status !== 400) {
        findings.push(`${c.operation} answered ${response.status}`);
        continue;
      }
      const named = namedFields(response.json());
      const missing = Object.keys(assigned).filter((field) => !named.has(field));
      if (missing.length) findings.push(`${c.operation}'s 400 does not name ${missing.join(', ')}`);
    }
    if (findings.length) fail(`creates with privileged or unknown fields: ${findings.join('; ')}`, { expected: '400 naming each field', actual: findings });
  },
});
