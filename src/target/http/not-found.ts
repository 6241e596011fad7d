/**
 * 404 for unknown paths, 405 + Allow for known paths with another method. Fastify's router only says "no
 * route"; the route table below, filled from the onRoute hook, tells the two cases apart.
 */
import type { FastifyInstance } from 'fastify';
import { ProblemError } from './problem.ts';

export class RouteTable {
  readonly #routes: { pattern: RegExp; methods: Set<string> }[] = [];

  add(url: string, methods: readonly string[]): void {
    const source = url
      .split('/')
      .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/');
    const existing = this.#routes.find((route) => route.pattern.source === `^${source}$`);
    const set = existing?.methods ?? new Set<string>();
    for (const method of methods) set.add(method);
    if (set.has('GET')) set.add('HEAD');
    if (!existing) this.#routes.push({ pattern: new RegExp(`^${source}$`), methods: set });
  }

  /** Methods allowed on a concrete path, sorted; empty when no route matches it. */
  allowed(path: string): string[] {
    const methods = new Set<string>();
    for (const route of this.#routes) if (route.pattern.test(path)) for (const m of route.methods) methods.add(m);
    return [...methods].sort();
  }
}

/** Must run before the routes are registered, so that onRoute sees every one of them. */
export function installNotFound(app: FastifyInstance): void {
  const table = new RouteTable();
  app.addHook('onRoute', (route) => {
    table.add(route.url, Array.isArray(route.method) ? route.method : [route.method]);
  });
  app.setNotFoundHandler(async (request) => {
    const path = request.url.split('?')[0] ?? '/';
    const allowed = table.allowed(path);
    if (allowed.length === 0) {
      throw new ProblemError(404, 'not_found', { detail: `No resource at ${truncate(path)}.` });
    }
    throw new ProblemError(405, 'method_not_allowed', {
      detail: `${request.method} is not allowed here; use ${allowed.join(', ')}.`,
      headers: { Allow: allowed.join(', ') },
    });
  });
}

// The path is echoed in the detail; bounded so an absurd URL does not produce an absurd body.
function truncate(path: string): string {
  return path.length > 200 ? `${path.slice(0, 200)}…` : path;
}
