/**
 * Human-readable progress and summary on a stream (stdout by default). One line per check, failures with their
 * message indented below, and a closing verdict line. Colour only on a TTY and never with NO_COLOR.
 */
import { styleText } from 'node:util';
import type { HarnessEvent, Reporter } from '../report/events.ts';
import type { CheckResult } from '../conformance/result.ts';
import { describeConditions } from '../conformance/conditions.ts';
import { CheckProgress } from './check-progress.ts';
import { headlineOf, type Tone } from '../report/headline.ts';
import { levelCounts } from '../report/level-counts.ts';
import type { Report } from '../report/report.ts';
import { securityLines } from '../report/security-lines.ts';

type Style = Parameters<typeof styleText>[0];

const MARK: Record<CheckResult['status'], { text: string; style: Style }> = {
  passed: { text: 'PASS', style: 'green' },
  failed: { text: 'FAIL', style: 'red' },
  skipped: { text: 'SKIP', style: 'yellow' },
  error: { text: 'ERR ', style: 'magenta' },
  // Neither pass nor fail: the run's measured conditions made the answer unknowable (its reason is printed below).
  undecided: { text: 'UNDEC', style: 'cyan' },
};

const TONE_STYLE: Record<Tone, Style> = { pass: 'green', warn: 'yellow', fail: 'red', incomplete: 'magenta', neutral: 'dim' };

export interface ConsoleReporterOptions {
  write?: (text: string) => void;
  color?: boolean;
  /** Also list passed checks (default: yes; `--quiet` lists only failures and skips). */
  showPassed?: boolean;
  /** A live progress line (default: stdout is a TTY and not CI); otherwise a plain progress line every 15 s. */
  live?: boolean;
  /** Terminal width for the live line (default: stdout's columns, else 80). */
  columns?: () => number | undefined;
  now?: () => number;
}

export class ConsoleReporter implements Reporter {
  readonly name = 'console';
  readonly #write: (text: string) => void;
  readonly #color: boolean;
  readonly #showPassed: boolean;
  readonly #progress: CheckProgress;
  /** The suite whose heading was printed last: a check of another suite finishing under it ran beside (beside.ts). */
  #suite: string | undefined;

  constructor(options: ConsoleReporterOptions = {}) {
    this.#write = options.write ?? ((text) => process.stdout.write(text));
    this.#color = options.color ?? (process.stdout.isTTY === true && !process.env.NO_COLOR);
    this.#showPassed = options.showPassed ?? true;
    this.#progress = new CheckProgress({
      write: this.#write,
      live: options.live ?? (process.stdout.isTTY === true && !process.env.CI),
      columns: options.columns ?? (() => process.stdout.columns),
      ...(options.now ? { now: options.now } : {}),
    });
  }

  onEvent(event: HarnessEvent): void {
    switch (event.type) {
      case 'run-started': {
        const where = event.target.embedded ? ' (embedded reference target)' : '';
        const total = event.suites.reduce((n, s) => n + s.checks, 0);
        this.#line(`run ${event.runId} against ${event.target.baseUrl}${where}: ${total} checks in ${event.suites.length} suite(s)`);
        this.#progress.start(total);
        break;
      }
      case 'check-started':
        this.#progress.checkStarted(event.id);
        break;
      case 'suite-started':
        this.#suite = event.suite;
        this.#line('');
        this.#line(this.#style('bold', `${event.suite} — ${event.title}`));
        break;
      case 'check-finished':
        this.#check(event.result);
        this.#progress.checkFinished();
        break;
      case 'checks-finished':
        // The live line ends with the checks: the run-end hooks, the load phase and its own progress line follow.
        this.#progress.stop();
        break;
      case 'notice':
        this.#line(event.level === 'warn' ? this.#style('yellow', `warning: ${event.message}`) : event.message);
        break;
      case 'run-finished':
        this.#progress.stop();
        this.#line('');
        if (event.report.conditions && event.report.checks.length > 0) {
          // Every time-dependent judgement took its tolerance from these (per stretch); said just before the verdict.
          this.#line(this.#style('dim', `run conditions: ${describeConditions(event.report.conditions)}`));
        }
        if (event.report.run.aborted) this.#line(this.#style('red', `run aborted: ${event.report.run.aborted.message}`));
        if (event.report.security && event.report.checks.length > 0) {
          for (const line of securityLines(event.report.security)) this.#line(line.startsWith('  findings') ? this.#style('red', line) : line);
        }
        this.#ownershipLine(event.report);
        // The verdict is the run's last line (the job hands the report files to their writers first).
        this.#line(this.#verdictLine(event.report));
        break;
      default:
        break;
    }
  }

  #check(result: CheckResult): void {
    if (result.status === 'passed' && !this.#showPassed) return;
    const mark = result.vacuous !== undefined ? { text: 'PASS?', style: 'yellow' as Style } : MARK[result.status];
    const level = result.level.padEnd(7);
    const beside = this.#suite !== undefined && result.suite !== this.#suite ? ', ran beside the checks above' : '';
    this.#line(`  ${this.#style(mark.style, mark.text)} ${level} ${result.id}  ${this.#style('dim', `${result.title} (${Math.round(result.durationMs)} ms${beside})`)}`);
    if (result.vacuous !== undefined) this.#line(`         vacuous: ${result.vacuous}`);
    if (result.message && result.status !== 'passed') {
      for (const line of result.message.split('\n')) this.#line(`         ${line}`);
      if (result.status !== 'skipped') this.#line(this.#style('dim', `         see ${result.specRef}`));
      if (result.describeIn) {
        const keys = result.describeIn.keys.join(', ');
        this.#line(result.describeIn.described
          ? `         against your own description: the config sets ${keys}, and the target still differs`
          : `         a choice of your target? describe it in harness.config.yaml: ${keys} (harness init drafts them)`);
        for (const [key, value] of Object.entries(result.describeIn.values ?? {})) this.#line(`           ${key}: ${JSON.stringify(value)}   (what this check observed)`);
      }
    }
  }

  /** The headline's ownership line, under the verdict: what leaked, which key to add, or why it does not apply. */
  #ownershipLine(report: Report): void {
    const line = headlineOf(report).lines.find((l) => l.label === 'Ownership');
    if (line) this.#line(this.#style(TONE_STYLE[line.tone], line.text.startsWith('ownership:') ? line.text : `ownership: ${line.text}`));
  }

  /** The same title as report.html's banner: the verdict as the exit code has it ("CERTIFIED — thresholds crossed (exit 99)"). */
  #verdictLine(report: Report): string {
    const headline = headlineOf(report);
    const counts = report.checks.length > 0 ? ` — ${levelCounts(report.summary)}` : '';
    return `${this.#style(TONE_STYLE[headline.tone], `verdict: ${headline.title}`)}${counts}`;
  }

  #style(style: Style, text: string): string {
    // validateStream off: whether to colour was decided once (TTY and no NO_COLOR, or the caller said so).
    return this.#color ? styleText(style, text, { validateStream: false }) : text;
  }

  /**
   * A line from outside the event stream (the job's `log`: report paths, scenario summaries), written like the
   * reporter's own: the live progress line, while there is one, is cleared first and drawn again below it.
   */
  print(text: string): void {
    this.#line(text);
  }

  /** Every printed line first clears the live progress line, which is drawn again below it. */
  #line(text: string): void {
    this.#progress.clear();
    this.#write(`${text}\n`);
    this.#progress.redraw();
  }
}

export { levelCounts } from '../report/level-counts.ts';
