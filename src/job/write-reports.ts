/**
 * Every command's report files: report.json, report.html and junit.xml, through the same printers, so every
 * command's output opens in a browser and goes into `harness compare`; and the secrets a run redacts.
 */
import { collectSecrets, namedCredentialSecrets } from '../config/secrets.ts';
import type { CredentialsConfig, FrozenConfig } from '../config/types.ts';
import { EventBus, type Reporter } from '../report/events.ts';
import { SecretRegistry } from '../http/redact.ts';
import { HtmlReporter } from '../reporters/html-reporter.ts';
import { JsonReporter } from '../reporters/json-reporter.ts';
import { JunitReporter } from '../reporters/junit-reporter.ts';
import type { JunitOptions } from '../reporters/junit/cases.ts';
import type { Report } from '../report/report.ts';

/** Every secret of the config, plus the credentials actually used (the embedded target's own). */
export function runSecrets(config: FrozenConfig, credentials: CredentialsConfig): SecretRegistry {
  const secrets = new SecretRegistry(collectSecrets(config));
  for (const value of collectSecrets({ ...config, credentials } as FrozenConfig)) secrets.add(value);
  // Each credential with its environment variable, for the curl commands in the evidence (src/http/curl.ts).
  for (const [value, envName] of namedCredentialSecrets(credentials, config.webhooks?.preRegistered?.secret)) secrets.addNamed(value, envName);
  for (const [value, envName] of namedCredentialSecrets(config.credentials)) secrets.addNamed(value, envName);
  return secrets;
}

/** Options of the report files' printers, handed down from the command line. */
export interface ReportFileOptions {
  junit?: JunitOptions;
}

/** The reporters that write report.json, report.html and junit.xml: every command's files. */
export function fileReporters(secrets: SecretRegistry, log: (line: string) => void, options: ReportFileOptions = {}): Reporter[] {
  return [new JsonReporter(secrets, log), new HtmlReporter(secrets, log), new JunitReporter(secrets, log, options.junit)];
}

export async function writeReports(report: Report, runDir: string, secrets: SecretRegistry, log: (line: string) => void, options: ReportFileOptions = {}): Promise<void> {
  const bus = new EventBus(fileReporters(secrets, log, options));
  await bus.emit({ type: 'run-finished', report, outDir: runDir });
}
