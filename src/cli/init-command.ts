/** `harness init`: draft harness.config.yaml from the target's OpenAPI document and its observed behaviour. */
import type { Command } from 'commander';
import { integerFlag, urlFlag } from './parse-flags.ts';

interface InitFlags {
  target?: string;
  openapi?: string;
  out: string;
  force?: boolean;
  timeout?: number;
}

const HELP = `
Credentials are read from the variables the run reads (HARNESS_API_KEY, HARNESS_OTHER_API_KEY, HARNESS_LOGIN_EMAIL,
HARNESS_OAUTH_CLIENT_ID, … as \`harness serve\` prints them); the file written holds \${HARNESS_…} references only.
Observation is bounded: at most 60 requests and 60 s, 429 answers waited out as Retry-After says.

Exit codes of init:
    0  the config (and, where errors are not problem+json, <name>.error-schema.json beside it) was written
    2  usage: neither --target nor --openapi, a file exists without --force, or the target answered 401 to every
       request made with HARNESS_API_KEY
    3  the target (or the document's URL) could not be reached
  104  the document is not OpenAPI 3.0/3.1, or documents another API (none of this API's operations)
   70  a bug in the harness
Nothing is written unless init exits 0.
`;

export function registerInitCommand(program: Command): void {
  program
    .command('init')
    .description("draft harness.config.yaml from the target's OpenAPI document and its observed behaviour")
    .option('--target <url>', 'base URL of the target to observe (with the credentials in the environment)', urlFlag('--target'))
    .option('--openapi <file|url>', "the target's OpenAPI 3.0 or 3.1 document (JSON or YAML); where it and the behaviour disagree, the config follows it")
    .option('--out <file>', 'config file to write', 'harness.config.yaml')
    .option('--force', 'overwrite the config (and its error schema) if they exist')
    .option('--timeout <ms>', 'per-request timeout in ms (default 10000)', integerFlag('--timeout', 1, 600_000))
    .addHelpText('after', HELP)
    .exitOverride()
    .action(async (flags: InitFlags) => {
      // Loaded here, not at the top: the other commands' starts would pay for this one's engines.
      const { runInit } = await import('../init/run-init.ts');
      await runInit({
        ...(flags.target ? { target: flags.target } : {}),
        ...(flags.openapi ? { openapi: flags.openapi } : {}),
        out: flags.out,
        force: flags.force === true,
        env: process.env,
        log: (line) => process.stdout.write(`${line}\n`),
        ...(flags.timeout ? { timeoutMs: flags.timeout } : {}),
      });
    });
}
