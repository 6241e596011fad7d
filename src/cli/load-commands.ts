/** The throughput commands in one registration (main.ts calls this once): `load`, `capacity`, `export k6`. */
import type { Command } from 'commander';
import type { ExitCodeValue } from '../errors/exit-codes.ts';
import { registerCapacityCommand } from './capacity-command.ts';
import { registerExportCommand } from './export-command.ts';
import { registerLoadCommand } from './load-command.ts';

export function registerLoadCommands(program: Command, setExit: (code: ExitCodeValue) => void): void {
  registerLoadCommand(program, setExit);
  registerCapacityCommand(program, setExit);
  registerExportCommand(program);
}
