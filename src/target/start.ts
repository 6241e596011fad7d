/** startReferenceTarget(): buildApp() + listen. The only place the reference target opens a socket. */
import type { AddressInfo } from 'node:net';
import { TargetStartError } from '../errors/harness-errors.ts';
import { buildApp, type BuiltApp } from './app.ts';
import type { ReferenceTargetOptions, StartedReferenceTarget } from './types.ts';

export interface StartOptions extends ReferenceTargetOptions {
  /** @default "127.0.0.1" */
  host?: string;
  /** @default 0 (ephemeral) */
  port?: number;
}

export type StartedTarget = StartedReferenceTarget & Pick<BuiltApp, 'events'>;

export async function startReferenceTarget(opts: StartOptions = {}): Promise<StartedTarget> {
  const host = opts.host ?? '127.0.0.1';
  const built = await buildApp(opts);
  try {
    await built.app.listen({ host, port: opts.port ?? 0 });
  } catch (err) {
    await built.app.close();
    throw new TargetStartError(`reference target cannot listen on ${host}:${opts.port ?? 0}: ${(err as Error).message}`, {
      cause: err,
    });
  }
  const { port } = built.app.server.address() as AddressInfo;
  return {
    ...built,
    baseUrl: `http://${connectHost(host)}:${port}`,
    host,
    port,
    close: async () => {
      await built.app.close();
    },
  };
}

/** A host a client can connect to: wildcard addresses become loopback, IPv6 literals get brackets. */
function connectHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}
