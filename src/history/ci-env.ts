/**
 * A run's commit and branch from the environment of the usual CI systems, so `harness history --add` records them
 * without flags. The first variable set wins, in the order below; values are cut to a sane length and stripped of
 * control characters (they end up in file contents, console lines and an HTML page).
 */
const COMMIT_VARS = ['GITHUB_SHA', 'CI_COMMIT_SHA', 'BUILDKITE_COMMIT', 'CIRCLE_SHA1', 'BITBUCKET_COMMIT', 'GIT_COMMIT'] as const;
/** GITHUB_HEAD_REF first: on a pull request GITHUB_REF_NAME is "123/merge", the head branch is what the run was of. */
const BRANCH_VARS = ['GITHUB_HEAD_REF', 'GITHUB_REF_NAME', 'CI_COMMIT_REF_NAME', 'BUILDKITE_BRANCH', 'CIRCLE_BRANCH', 'BITBUCKET_BRANCH', 'GIT_BRANCH'] as const;

const MAX_LENGTH = 200;

export interface CiMeta {
  commit?: string;
  branch?: string;
}

export function ciMeta(env: NodeJS.ProcessEnv = process.env): CiMeta {
  const commit = firstSet(env, COMMIT_VARS);
  const branch = firstSet(env, BRANCH_VARS);
  return { ...(commit ? { commit } : {}), ...(branch ? { branch } : {}) };
}

function firstSet(env: NodeJS.ProcessEnv, names: readonly string[]): string | undefined {
  for (const name of names) {
    const value = env[name];
    if (value !== undefined && value.trim().length > 0) return cleanText(value);
  }
  return undefined;
}

/** Printable text of bounded length: a label or branch name is shown everywhere, never a control sequence. */
export function cleanText(value: string): string {
  // eslint-disable-next-line no-control-regex
  return value.replace(/[\u0000-\u001f\u007f-\u009f]/g, '').trim().slice(0, MAX_LENGTH);
}
