/**
 * Declarative checks that name the config's operations instead of paths, with every kind of credential the
 * format offers (API key, JWT from the configured login, OAuth access token, none) and schema names from
 * schemas/api, against the embedded-style reference target. Paths come from api.paths, so a target with other
 * paths runs the same file after describing them in its config.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { registryFor } from '../../../src/cli/registry-for-config.ts';
import { configFromObject } from '../../../src/config/index.ts';
import { credentialsFromReference } from '../../../src/job/open-target.ts';
import { runJob } from '../../../src/job/run-job.ts';
import { startReferenceTarget } from '../../../src/target/index.ts';

const SUITE = `
suite: ops
title: Operations by name
checks:
  - id: ops.list
    title: The list answers its envelope
    level: PROFILE
    specRef: PROFILE Messages
    request: { operation: listMessages, query: { limit: 2 } }
    expect: { status: 200, schema: message-list, json: { /pagination/limit: { equals: 2 } } }
  - id: ops.account-with-jwt
    title: The account answers with a JWT from the login
    level: PROFILE
    specRef: PROFILE Authentication
    request: { operation: account, credential: jwt }
    expect: { status: 200, schema: account }
  - id: ops.account-with-oauth
    title: The account answers with an OAuth access token
    level: PROFILE
    specRef: PROFILE Authentication
    request: { operation: account, credential: oauth }
    expect: { status: 200 }
  - id: ops.campaign-round-trip
    title: A created campaign is read back through getCampaign with its id
    level: PROFILE
    specRef: PROFILE Email campaigns
    steps:
      - request:
          operation: createCampaign
          body: { name: "n{{seq}}", subject: s, content: "<p>c</p>", recipients: ["a@example.com"] }
        expect: { status: 201 }
        capture: { id: /id }
      - request: { operation: getCampaign, params: { id: "{{var id}}" } }
        expect: { status: 200, json: { /id: { equals: "{{var id}}" } } }
  - id: ops.no-credential
    title: The account without a credential is refused
    level: MUST
    specRef: SERVICE-SPEC §5 rule 5
    clauses: ["§5.5"]
    request: { operation: account, credential: none }
    expect: { status: 401, schema: error }
`;

describe('declarative checks by operation', () => {
  it('pass against the reference target with each credential kind', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'harness-ops-'));
    writeFileSync(join(dir, 'ops.yaml'), SUITE);
    const target = await startReferenceTarget({ host: '127.0.0.1', port: 0 });
    try {
      const config = configFromObject({
        target: { baseUrl: target.baseUrl },
        credentials: credentialsFromReference(target.credentials),
        conformance: { suites: ['ops'], suiteFiles: [join(dir, 'ops.yaml')] },
        report: { outDir: dir },
      });
      const { report } = await runJob({ config, registry: registryFor(config), log: () => {} });
      expect(report.checks.map((c) => [c.id, c.status, c.message ?? ''])).toEqual([
        ['ops.list', 'passed', ''],
        ['ops.account-with-jwt', 'passed', ''],
        ['ops.account-with-oauth', 'passed', ''],
        ['ops.campaign-round-trip', 'passed', ''],
        ['ops.no-credential', 'passed', ''],
      ]);
    } finally {
      await target.close();
    }
  });
});
