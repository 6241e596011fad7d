/**
 * The words for an interrupted capacity search, shared by the console summary (src/load/print-summary.ts) and the
 * headline of report.html / junit.xml (src/report/headline.ts), so every output says the same thing. Here, not
 * in either, because the load engine and the reporters may not import each other's code.
 */
export interface InterruptedSearch {
  sustainableRps: number;
  steps: ReadonlyArray<{ ok: boolean }>;
  interrupted?: { atStep: number; plannedSteps: number };
}

/** "ceiling not reached: interrupted at step 3 of 8; at least 200 req/s held in the finished steps". */
export function interruptedText(result: InterruptedSearch): string {
  const at = result.interrupted ? `at step ${result.interrupted.atStep} of ${result.interrupted.plannedSteps}` : 'before its first step';
  const held = result.steps.some((s) => s.ok) ? `; at least ${result.sustainableRps} req/s held in the finished steps` : '; no finished step held the SLO';
  return `ceiling not reached: interrupted ${at}${held}`;
}
