import { describe, expect, it } from 'vitest';
import { OWASP_ITEMS } from '../../../src/conformance/check.ts';
import { securityOf } from '../../../src/conformance/owasp.ts';
import type { CheckResult } from '../../../src/conformance/result.ts';
import { securityLines } from '../../../src/report/security-lines.ts';
import { createDefaultRegistry } from '../../../suites/index.ts';

function result(id: string, status: CheckResult['status'], extra: Partial<CheckResult> = {}): CheckResult {
  return { id, suite: id.split('.')[0]!, title: id, level: 'SHOULD', specRef: 'x', status, durationMs: 1, ...extra };
}

describe('securityOf', () => {
  const checks = [
    { id: 'a.ssrf', owasp: ['API7:2023'] as const },
    { id: 'a.auth', owasp: ['API2:2023'] as const },
    { id: 'a.cors', owasp: ['API8:2023'] as const },
    { id: 'a.vacuous', owasp: ['API8:2023', 'API4:2023'] as const },
    { id: 'a.none' },
  ];

  it('lists all ten items: findings from failed checks, covered by a real pass, otherwise not covered with the reason', () => {
    const security = securityOf(checks, [
      result('a.ssrf', 'failed', { message: 'accepted http://169.254.169.254/' }),
      result('a.auth', 'passed'),
      result('a.cors', 'skipped', { message: 'no key' }),
      result('a.vacuous', 'passed', { vacuous: 'nothing came' }),
    ]);
    expect(security.items.map((i) => i.id)).toEqual([...OWASP_ITEMS]);
    const byId = new Map(security.items.map((i) => [i.id, i]));
    expect(byId.get('API7:2023')).toMatchObject({ status: 'findings', findings: [{ check: 'a.ssrf', level: 'SHOULD', message: 'accepted http://169.254.169.254/' }] });
    expect(byId.get('API2:2023')).toMatchObject({ status: 'covered', checks: ['a.auth'] });
    expect(byId.get('API8:2023')).toMatchObject({ status: 'not-covered', reason: expect.stringContaining('a.cors: skipped; a.vacuous: passed vacuously') });
    expect(byId.get('API1:2023')).toMatchObject({ status: 'not-covered', reason: 'no check of this run covers it' });
    expect(byId.get('API9:2023')!.reason).toMatch(/inventory/);
    expect([security.withFindings, security.covered, security.notCovered]).toEqual([1, 1, 8]);
  });

  it('prints the findings with their checks and levels, then the covered and not-covered ids', () => {
    const lines = securityLines(securityOf(checks, [result('a.ssrf', 'failed', { message: 'x' }), result('a.auth', 'passed')]));
    expect(lines).toEqual([
      'security (OWASP API Security Top 10, 2023): 1 with findings, 1 covered, 8 not covered',
      '  findings API7:2023 Server Side Request Forgery: a.ssrf (SHOULD)',
      '  covered: API2',
      '  not covered: API1, API3, API4, API5, API6, API8, API9, API10',
    ]);
  });

  it('the built-in catalogue covers API2, API3, API4, API5, API7 and API8', () => {
    const all = createDefaultRegistry().suites.flatMap((s) => s.checks);
    const items = new Set(all.flatMap((c) => c.owasp ?? []));
    for (const item of ['API2:2023', 'API3:2023', 'API4:2023', 'API5:2023', 'API7:2023', 'API8:2023']) expect(items.has(item as never)).toBe(true);
    // Every security-suite check cites its item.
    expect(all.filter((c) => c.suite === 'security' && !c.owasp?.length).map((c) => c.id)).toEqual([]);
  });
});
