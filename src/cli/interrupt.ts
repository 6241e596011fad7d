/**
 * SIGINT and SIGTERM, the same way for every command (except `serve`, whose stop IS a signal): the first one
 * aborts the command's AbortSignal, so the run stops, winds down within bounds and writes its partial report;
 * the command then exits 105 (ExitCode.Interrupted, k6's number for an external abort). A second signal does not
 * throw the report away: it only shortens the wait — the process force-exits (105) after a bounded flush time
 * unless the report is written first. A command that has nothing to wind down (it never asked for the signal)
 * exits 105 at once.
 */
import { ExitCode } from '../errors/exit-codes.ts';

export interface InterruptOptions {
  /** After a second signal: the longest the report write may still take before a forced exit. @default 10000 */
  flushMs?: number;
  /** After the first signal: the longest the whole wind-down may take before a forced exit. @default 60000 */
  windDownMs?: number;
  exit?: (code: number) => void;
  write?: (line: string) => void;
}

export interface Interrupts {
  /** The signal a command passes to its job; asking for it says "I write a partial report when stopped". */
  claim(): AbortSignal;
  /** The first signal received, if any. */
  readonly received: NodeJS.Signals | undefined;
  dispose(): void;
}

const SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];

export function listenForInterrupts(options: InterruptOptions = {}): Interrupts {
  if (lateSignal) for (const name of SIGNALS) process.off(name, lateSignal);
  lateSignal = undefined;
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const write = options.write ?? ((line: string) => void process.stderr.write(`${line}\n`));
  const controller = new AbortController();
  let claimed = false;
  let received: NodeJS.Signals | undefined;
  const forceExitAfter = (ms: number, why: string): void => {
    const timer = setTimeout(() => {
      write(`${why}: exiting now (${ExitCode.Interrupted})`);
      exit(ExitCode.Interrupted);
    }, ms);
    // The timer must not keep a finished process alive.
    timer.unref();
  };
  const onSignal = (signal: NodeJS.Signals): void => {
    if (received === undefined) {
      received = signal;
      if (!claimed) {
        write(`received ${signal}: stopped`);
        exit(ExitCode.Interrupted);
        return;
      }
      write(`received ${signal}: stopping; the partial report is being written (a second signal exits after at most ${Math.round((options.flushMs ?? 10_000) / 1000)} s)`);
      controller.abort();
      forceExitAfter(options.windDownMs ?? 60_000, 'the run did not wind down in time');
      return;
    }
    write(`received ${signal} again: exiting as soon as the report is written`);
    forceExitAfter(options.flushMs ?? 10_000, 'the report was not written in time');
    // Further signals change nothing: one bounded flush is pending.
    for (const [name, handler] of handlers) process.off(name, handler);
    for (const name of SIGNALS) process.on(name, noop);
  };
  // One handler per name: the signal is known without relying on the argument Node passes.
  const handlers = SIGNALS.map((name) => [name, () => onSignal(name)] as const);
  for (const [name, handler] of handlers) process.on(name, handler);
  return {
    claim() {
      claimed = true;
      return controller.signal;
    },
    get received() {
      return received;
    },
    dispose() {
      for (const [name, handler] of handlers) {
        process.off(name, handler);
        process.off(name, noop);
      }
      // After an interruption, a signal that arrives between the command's return and the process's end (a second
      // Ctrl-C a few ms late) must not kill the process with the default handler: the report is written, so the
      // documented code stands.
      if (received !== undefined) {
        lateSignal = () => exit(ExitCode.Interrupted);
        for (const name of SIGNALS) process.on(name, lateSignal);
      }
      // The force-exit timers stay (unref'd): if something still holds the process after the command returned,
      // they end it with the documented code.
    },
  };
}

function noop(): void {}

/** After an interrupted command returned: a late signal exits with the documented code (removed by the next listener). */
let lateSignal: (() => void) | undefined;

let active: Interrupts | undefined;

/** Starts listening for the command about to run (main.ts); the previous listener, if any, is disposed. */
export function activateInterrupts(options: InterruptOptions = {}): Interrupts {
  active?.dispose();
  active = listenForInterrupts(options);
  return active;
}

/** Stops listening (the command returned). */
export function deactivateInterrupts(): NodeJS.Signals | undefined {
  const received = active?.received;
  active?.dispose();
  active = undefined;
  return received;
}

/** The signal a long-running command hands its job: it aborts on SIGINT/SIGTERM, and the command then winds down. */
export function interruptSignal(): AbortSignal {
  return active?.claim() ?? new AbortController().signal;
}
