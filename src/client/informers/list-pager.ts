// client-go's list pager as the reflector uses it: pages of `pageSize` (500) joined into one list
// at the first page's resourceVersion; a continue token that expires midway falls back to one
// unpaged list at the revision first asked for, rather than failing the whole list.

import type { ApiObject } from '../../machinery/object.ts';
import { reasonOf } from '../../machinery/status.ts';
import type { ListOptions, ResourceClient } from '../api.ts';

export interface PagedListResult<T> {
  items: T[];
  resourceVersion: string;
  /** Whether the server split the answer into pages. */
  paginated: boolean;
}

/**
 * Lists at `resourceVersion` ('' for the most recent state) in pages of `pageSize` (0 for one
 * request without a limit), with `base` (selectors and the signal) on every request.
 */
export async function pagedList<T extends ApiObject>(
  client: ResourceClient<T>,
  resourceVersion: string,
  pageSize: number,
  base: Pick<ListOptions, 'labelSelector' | 'fieldSelector' | 'signal'>,
): Promise<PagedListResult<T>> {
  const limit = pageSize > 0 ? pageSize : undefined;
  const first: ListOptions = { ...base, limit };
  if (resourceVersion !== '') first.resourceVersion = resourceVersion;
  let opts = first;
  let items: T[] | undefined;
  let listRV = '';
  let paginated = false;
  for (;;) {
    let page: Awaited<ReturnType<ResourceClient<T>['list']>>;
    try {
      page = await client.list(opts);
    } catch (err) {
      // Only an expired continue token (page two onwards) falls back to a full list.
      if (reasonOf(err) !== 'Expired' || opts.continue === undefined) throw err;
      const full = await client.list({ ...first, limit: undefined });
      return { items: full.items ?? [], resourceVersion: full.metadata?.resourceVersion ?? '', paginated };
    }
    const cont = page.metadata?.continue;
    if (!cont && items === undefined) {
      return { items: page.items ?? [], resourceVersion: page.metadata?.resourceVersion ?? '', paginated };
    }
    if (items === undefined) {
      items = [];
      listRV = page.metadata?.resourceVersion ?? '';
    }
    for (const item of page.items ?? []) items.push(item);
    if (!cont) return { items, resourceVersion: listRV, paginated };
    // Later pages carry the token alone: a resourceVersion beside a continue is refused.
    opts = { ...base, limit, continue: cont };
    paginated = true;
  }
}
