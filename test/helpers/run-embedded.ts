/**
 * Starts the reference target, runs every suite against it as a library (all reporters attached, as `npm start`
 * does) and hands back the outcome with the secret values that were in play, so tests can look for them in
 * the written files.
 */
import { collectSecrets } from '../../src/config/secrets.ts';
import type { FrozenConfig } from '../../src/config/types.ts';
import { credentialsFromReference } from '../../src/job/open-target.ts';
import type { JobOutcome } from '../../src/job/run-job.ts';
import { startReferenceTarget } from '../../src/target/index.ts';
import { runHarness } from './run-harness.ts';

export interface EmbeddedRun extends JobOutcome {
  /** Every credential value the run used (API keys, password, client secrets). */
  secrets: string[];
}

export async function runEmbedded(): Promise<EmbeddedRun> {
  const target = await startReferenceTarget({ host: '127.0.0.1', port: 0 });
  try {
    const credentials = credentialsFromReference(target.credentials);
    const outcome = await runHarness({ baseUrl: target.baseUrl, credentials });
    const secrets = [...collectSecrets({ credentials, reference: {} } as unknown as FrozenConfig)];
    return { ...outcome, secrets };
  } finally {
    await target.close();
  }
}
