/**
 * The list operation, observed: which query parameter limits a page and which one continues it, the default and
 * the largest page size, and the order. Names are tried from a short list of common spellings; what cannot be
 * observed is printed and left at PROFILE.md's default.
 */
import type { Findings } from './choices.ts';
import type { ProbeClient, Seen } from './probe-client.ts';

const LIMIT_NAMES = ['limit', 'page_size', 'per_page', 'pageSize', 'size', 'max_results'];
const CURSOR_NAMES = ['cursor', 'after', 'page_token', 'pageToken', 'starting_after', 'next', 'continuation'];
/** The largest page size init tries: above it, an accepted limit is reported as "no maximum seen". */
const LIMIT_CEILING = 1000;

interface Page {
  items: Array<Record<string, unknown>>;
  next?: string | null;
  limit?: number;
}

export function pageOf(seen: Seen): Page | undefined {
  const body = seen.res.json<Record<string, unknown>>();
  if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const items = Object.values(body).find(Array.isArray) as Array<Record<string, unknown>> | undefined;
  if (!items) return undefined;
  const pagination = Object.values(body).find((v) => v && typeof v === 'object' && !Array.isArray(v) && 'next' in v) as Record<string, unknown> | undefined;
  const next = pagination?.next;
  const limit = pagination?.limit;
  return { items, next: typeof next === 'string' ? next : next === null ? null : undefined, ...(typeof limit === 'number' ? { limit } : {}) };
}

const q = (path: string, params: Record<string, string | number>): string => `${path}?${new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)])).toString()}`;

export async function observeList(probe: ProbeClient, path: string, bearer: string, out: Findings): Promise<void> {
  const get = (params: Record<string, string | number>): Promise<Seen> => probe.send({ path: Object.keys(params).length ? q(path, params) : path, bearer });
  const first = await get({});
  if (first.res.status !== 200) {
    out.note(`${first.said}: the list could not be read, so its parameters and page sizes were not observed`);
    return;
  }
  out.set('api.successStatus.listMessages', 200, first.said, 'behaviour');
  const page = pageOf(first);
  if (!page) {
    out.note(`${first.said} with a body that has no array of items: the list envelope was not recognised`);
    return;
  }
  if (page.limit !== undefined) out.set('api.pagination.defaultLimit', page.limit, `${first.said} with pagination.limit ${page.limit} when no limit was sent`, 'behaviour');
  if (page.items.length < 2) {
    out.note(`${first.said} with ${page.items.length} item(s): too few to tell the limit and cursor parameters apart; left at PROFILE's names`);
    return;
  }
  orderOf(page, first.said, out);

  let limitName: string | undefined;
  let limitSaid = '';
  for (const name of LIMIT_NAMES) {
    const seen = await get({ [name]: 1 });
    const one = seen.res.status === 200 ? pageOf(seen) : undefined;
    if (one && one.items.length === 1) {
      limitName = name;
      limitSaid = `${seen.said} with 1 item`;
      break;
    }
  }
  if (!limitName) {
    out.note(`no page-size parameter of ${LIMIT_NAMES.join(', ')} shortened a page of ${page.items.length}: a limit that is ignored is no config choice; left at PROFILE's "limit"`);
    return;
  }
  out.set('api.query.limit', limitName, limitSaid, 'behaviour');
  await observeMaxLimit(get, limitName, out);
  await observeCursor(get, limitName, first, out);
}

function orderOf(page: Page, said: string, out: Findings): void {
  const stamps = page.items.map((i) => Date.parse(String(i.timestamp ?? i.created_at ?? '')));
  if (stamps.some(Number.isNaN)) return;
  const ascending = stamps.every((t, i) => i === 0 || t >= stamps[i - 1]!);
  const descending = stamps.every((t, i) => i === 0 || t <= stamps[i - 1]!);
  if (ascending && !descending) out.set('api.pagination.order', 'oldest-first', `${said}: items by ascending timestamp`, 'behaviour');
  else if (descending) out.set('api.pagination.order', 'newest-first', `${said}: items by descending timestamp`, 'behaviour');
}

/** The largest accepted page size, by bisection between 1 (accepted) and the ceiling. */
async function observeMaxLimit(get: (p: Record<string, string | number>) => Promise<Seen>, name: string, out: Findings): Promise<void> {
  const top = await get({ [name]: LIMIT_CEILING });
  if (top.res.status === 200) {
    out.note(`${top.said}: no largest page size up to ${LIMIT_CEILING} (an upper bound that is not enforced is no config choice; left at PROFILE's maximum)`);
    return;
  }
  let lo = 1;
  let hi = LIMIT_CEILING;
  let loSaid = '';
  let hiSaid = top.said;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    const seen = await get({ [name]: mid });
    if (seen.res.status === 200) [lo, loSaid] = [mid, seen.said];
    else [hi, hiSaid] = [mid, seen.said];
  }
  out.set('api.pagination.maxLimit', lo, `${loSaid || `${name}=1 accepted`}; ${hiSaid}`, 'behaviour');
}

async function observeCursor(get: (p: Record<string, string | number>) => Promise<Seen>, limitName: string, first: Seen, out: Findings): Promise<void> {
  const one = await get({ [limitName]: 1 });
  const page = pageOf(one);
  if (!page?.next) {
    out.note(`${one.said} without pagination.next: the cursor parameter was not observed`);
    return;
  }
  const firstId = page.items[0]?.id;
  for (const name of CURSOR_NAMES) {
    const seen = await get({ [limitName]: 1, [name]: page.next });
    const second = seen.res.status === 200 ? pageOf(seen) : undefined;
    if (second && second.items.length === 1 && second.items[0]?.id !== firstId) {
      out.set('api.query.cursor', name, `${seen.said} with the item after the first page's (cursor from pagination.next)`, 'behaviour');
      return;
    }
  }
  out.note(`${first.said}: none of ${CURSOR_NAMES.join(', ')} carried pagination.next to the next page; left at PROFILE's "cursor"`);
}
