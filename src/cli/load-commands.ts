/**
 * The throughput commands in one registration (main.ts calls this once): `load`, `capacity`, `export k6`.
 * Also registers the scenario file kind, so `harness validate scenarios/x.yaml` checks scenarios.
 */
import type { Command } from 'commander';
import type { ExitCodeValue } from '../errors/exit-codes.ts';
import { registerScenarioFileKind } from '../load/scenario/file-kind.ts';
import { registerCapacityCommand } from './capacity-command.ts';
import { registerExportCommand } from './export-command.ts';
import { registerLoadCommand } from './load-command.ts';

export function registerLoadCommands(program: Command, setExit: (code: ExitCodeValue) => void): void {
  registerScenarioFileKind();
  registerLoadCommand(program, setExit);
  registerCapacityCommand(program, setExit);
  registerExportCommand(program);
}
