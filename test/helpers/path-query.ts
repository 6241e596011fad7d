/** Splits a request target (`/v1/x?a=1`) the way the convention targets route it: the path, and the query. */

/** The path part, without the query. */
export function pathOf(pathWithQuery: string): string {
  const q = pathWithQuery.indexOf('?');
  return q < 0 ? pathWithQuery : pathWithQuery.slice(0, q);
}

/** The query part, from its `?` on ('' when there is none). */
export function queryOf(pathWithQuery: string): string {
  const q = pathWithQuery.indexOf('?');
  return q < 0 ? '' : pathWithQuery.slice(q);
}
