/** One page of a newest-first listing, and where the next one starts. */
export interface Paged<T> {
  runs: T[];
  next?: string;
}

/** The most a page is asked for: the operator API's limit. */
export const MAX_PAGE = 500;

/**
 * Reads pages from `next` to `next` until `limit` runs (all of them when undefined) or the last
 * page. Pages may be short (a narrow filter), so this follows `next`, never a page's length.
 */
export async function collectPages<T>(
  read: (next: string | undefined, want: number) => Promise<Paged<T>>,
  limit = Number.POSITIVE_INFINITY,
): Promise<T[]> {
  const runs: T[] = [];
  let next: string | undefined;
  while (runs.length < limit) {
    const page = await read(next, Math.min(MAX_PAGE, limit - runs.length));
    runs.push(...page.runs);
    if (page.next === undefined) break;
    next = page.next;
  }
  return runs.slice(0, Math.max(0, limit));
}
