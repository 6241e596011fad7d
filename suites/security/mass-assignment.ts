/**
 * Mass assignment (OWASP API3:2023, broken object property level authorization): a create never takes over a
 * field the server sets (`id`, `status`, `created_at`, `recipients_count`, an owner) or one the API does not
 * have. "Never taken over" is SHOULD (OWASP's prevention: "avoid functions that automatically bind a client's
 * input into … internal objects"); PROFILE.md's exact answer — 400 naming each such field — is PROFILE, and binds
 * only the fields the effective request schema refuses (a target's own schema may describe ignoring them).
 */
import { defineCheck } from '../../src/conformance/check.ts';
import { fail, skip } from '../../src/conformance/outcomes.ts';
import type { CheckContext } from '../../src/conformance/context.ts';
import { CREATE_CASES, sendCreate, takenOver, type CreateCase } from './lib/creates.ts';

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

/**
 * Field names an error body points at: the items of `errors` or `details`, at the top or under `error` (problem
 * details, and the `{error: {details}}` form some targets use), by `path`, `pointer`, `field` or `name`, written
 * as "/x", "#/x" or "x".
 */
function namedFields(body: unknown): Set<string> {
  const names = new Set<string>();
  const root = (body ?? {}) as Record<string, unknown>;
  const nested = (root.error && typeof root.error === 'object' ? root.error : {}) as Record<string, unknown>;
  for (const list of [root.errors, root.details, nested.errors, nested.details]) {
    if (!Array.isArray(list)) continue;
    for (const item of list as Array<Record<string, unknown>>) {
      for (const key of ['path', 'pointer', 'field', 'name']) {
        const value = item?.[key];
        if (typeof value === 'string') names.add(value.replace(/^#?\/?/, '').split('/').pop() ?? value);
      }
    }
  }
  return names;
}

/**
 * The assigned fields the effective request schema refuses, each added alone to the valid body: a target whose
 * own schema (api.schemas) admits other properties describes ignoring them, which PROFILE's 400 does not bind.
 */
function refusedBySchema(ctx: CheckContext, c: CreateCase, body: Record<string, unknown>, assigned: Record<string, unknown>): string[] {
  return Object.keys(assigned).filter((field) => !ctx.schemas.validate(c.schema, { ...body, [field]: assigned[field] }).ok);
}

export const massAssignmentRejected = defineCheck({
  id: 'security.mass-assignment.rejected-naming-fields',
  suite: 'security',
  title: 'A create with privileged or unknown fields is refused (400 by default: api.rejectedStatus) with an error body naming each of them',
  level: 'PROFILE',
  specRef: 'PROFILE Accounts, ownership and exposure ("privileged fields … and unknown fields get 400 naming each"); api.rejectedStatus; OWASP API Security Top 10 2023 API3',
  clauses: ['§2.1', '§2.5', '§6'],
  owasp: ['API3:2023'],
  async run(ctx) {
    const findings: string[] = [];
    const admitted: string[] = [];
    for (const c of available(ctx)) {
      const assigned = c.assigned();
      const refused = refusedBySchema(ctx, c, c.body(ctx), assigned);
      if (refused.length === 0) {
        admitted.push(c.operation);
        continue;
      }
      const { response } = await sendCreate(ctx, c, assigned);
      if (!ctx.config.api.rejectedStatus.includes(response.status)) {
        findings.push(`${c.operation} answered ${response.status}, not a refusal (${ctx.config.api.rejectedStatus.join(' or ')})`);
        continue;
      }
      const named = namedFields(response.json());
      const missing = refused.filter((field) => !named.has(field));
      if (missing.length) findings.push(`${c.operation}'s ${response.status} does not name ${missing.join(', ')}`);
    }
    if (findings.length) fail(`creates with privileged or unknown fields: ${findings.join('; ')}`, { expected: 'refused, naming each field', actual: findings });
    if (admitted.length && admitted.length === available(ctx).length) {
      skip(`the request schemas of ${admitted.join(', ')} admit other properties (api.schemas): the target describes ignoring them; security.mass-assignment.not-taken-over still judges that none is taken over`);
    }
  },
});
