/**
 * The console's Security block: one line of counts, one line per OWASP item with findings (the checks that
 * found them, with their level), and the covered and not-covered items by id. The reasons an item is not
 * covered are in report.html and report.json `security`.
 */
import type { SecurityCoverage } from '../conformance/owasp.ts';

export function securityLines(security: SecurityCoverage): string[] {
  const ids = (status: string) => security.items.filter((i) => i.status === status).map((i) => i.id.replace(':2023', ''));
  const lines = [`security (OWASP API Security Top 10, 2023): ${security.withFindings} with findings, ${security.covered} covered, ${security.notCovered} not covered`];
  for (const item of security.items.filter((i) => i.status === 'findings')) {
    lines.push(`  findings ${item.id} ${item.title}: ${item.findings.map((f) => `${f.check} (${f.level})`).join(', ')}`);
  }
  const covered = ids('covered');
  const notCovered = ids('not-covered');
  if (covered.length) lines.push(`  covered: ${covered.join(', ')}`);
  if (notCovered.length) lines.push(`  not covered: ${notCovered.join(', ')}`);
  return lines;
}
