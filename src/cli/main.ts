/**
 * The `harness` command. Every failure ends here: a HarnessError prints its message (no stack) and exits with
 * its documented code; anything else is a harness bug (exit 70, stack only with HARNESS_DEBUG=1).
 */
import { Command, CommanderError } from 'commander';
import { ConfigError, isHarnessError } from '../errors/harness-errors.ts';
import { EXIT_CODE_DOCS, ExitCode, type ExitCodeValue } from '../errors/exit-codes.ts';
import { redactCredentialPositions } from '../http/credential-positions.ts';
import { HARNESS_VERSION } from '../version.ts';
import { registerCompareCommand } from './compare-command.ts';
import { registerHistoryCommand } from './history-command.ts';
import { registerImportCommand } from './import-command.ts';
import { registerInitCommand } from './init-command.ts';
import { registerListCommand } from './list-command.ts';
import { activateInterrupts, deactivateInterrupts } from './interrupt.ts';
import { registerLoadCommands } from './load-commands.ts';
import { registerProbeCommand } from './probe-command.ts';
import { registerRunCommand } from './run-command.ts';
import { registerServeCommand } from './serve-command.ts';
import { registerValidateCommand } from './validate-command.ts';

export function buildProgram(setExit: (code: ExitCodeValue) => void): Command {
  const program = new Command('harness')
    .description('Conformance and load-testing harness for the messaging, email and automation API')
    .version(HARNESS_VERSION)
    .showHelpAfterError('(run with --help for usage)')
    .addHelpText('after', `\nExit codes:\n${EXIT_CODE_DOCS.map(([code, text]) => `  ${String(code).padStart(3)}  ${text}`).join('\n')}\n`)
    .exitOverride();
  registerRunCommand(program, setExit);
  registerServeCommand(program);
  registerValidateCommand(program);
  registerLoadCommands(program, setExit);
  registerCompareCommand(program, setExit);
  registerProbeCommand(program, setExit);
  registerListCommand(program);
  registerImportCommand(program, setExit);
  registerHistoryCommand(program);
  registerInitCommand(program);
  for (const command of program.commands) command.exitOverride();
  // SIGINT/SIGTERM the same way for every command but `serve`, which stops on them by design (interrupt.ts), and
  // `validate`, which has no report to write and runs synchronously: a handler would only run once the event loop
  // is free again, so a long parse ignored SIGTERM; with the default disposition the signal ends it at once.
  program.hook('preAction', (_program, action) => {
    if (action.name() !== 'serve' && action.name() !== 'validate') activateInterrupts();
  });
  return program;
}

/** Runs the CLI and returns the exit code (never calls process.exit: callers and tests decide). */
export async function main(argv: readonly string[]): Promise<ExitCodeValue> {
  let exitCode: ExitCodeValue = ExitCode.Certified;
  const program = buildProgram((code) => (exitCode = code));
  try {
    await program.parseAsync([...argv]);
  } catch (err) {
    exitCode = reportFailure(err);
  }
  // An interrupted command exits 105 whatever it measured: its report (if any) says it stopped early.
  return deactivateInterrupts() !== undefined ? ExitCode.Interrupted : exitCode;
}

/** The boundary holds no config secrets, but a URL's password or a Basic credential in a message is one anyway. */
const withoutCredentials = (text: string): string => redactCredentialPositions(text, new Set(), false);

function reportFailure(err: unknown): ExitCodeValue {
  if (err instanceof CommanderError) {
    // Commander has already printed its message; help and version are not failures.
    return err.exitCode === 0 ? ExitCode.Certified : ExitCode.Usage;
  }
  if (isHarnessError(err)) {
    if (err instanceof ConfigError) {
      const count = err.issues.length === 1 ? '1 problem' : `${err.issues.length} problems`;
      process.stderr.write(`error: ${count} found:\n${withoutCredentials(err.message).split('\n').map((line) => `  ${line}`).join('\n')}\n`);
    } else {
      process.stderr.write(`error: ${withoutCredentials(err.message)}\n`);
    }
    return err.exitCode;
  }
  const message = withoutCredentials(err instanceof Error ? err.message : String(err));
  process.stderr.write(`internal error: ${message}\nThis is a bug in the harness; rerun with HARNESS_DEBUG=1 for details and report it.\n`);
  if (process.env.HARNESS_DEBUG && err instanceof Error && err.stack) process.stderr.write(`${err.stack}\n`);
  return ExitCode.Internal;
}
