// Which resource a storage key belongs to. Upstream keeps one store per resource, each knowing its
// group and resource; ours is one store for every resource, so the metrics read it back from the
// key, laid out by the registry as `/<resource>/...` for the core group and `/<group>/<resource>/...`
// otherwise. Roots registered explicitly win over that reading, and every answer is remembered by
// its root, so a key costs two string searches and a map lookup.

export interface GroupResource {
  readonly group: string;
  readonly resource: string;
}

/** Built-in groups whose names have no dot (every other group's name has one). */
const DOTLESS_GROUPS = new Set(['apps', 'batch', 'autoscaling', 'policy', 'extensions']);

/** What a key with no resource in it (the watch cache's list of everything) is reported as. */
export const NO_RESOURCE: GroupResource = Object.freeze({ group: '', resource: '' });

export class ResourceOfKey {
  private readonly byRoot = new Map<string, GroupResource>();

  /** Hears of each resource the first time one of its keys is seen, or when it is registered. */
  onNew: ((root: string, gr: GroupResource) => void) | undefined;

  /**
   * Names the resource of every key under `/<root>/` (a root such as `/configmaps`): for roots the
   * layout does not tell (a kind stored as another resource's objects is counted as that one).
   */
  register(root: string, gr: GroupResource): void {
    const known = this.byRoot.get(root);
    if (known !== undefined && known.group === gr.group && known.resource === gr.resource) return;
    const frozen = Object.freeze({ group: gr.group, resource: gr.resource });
    this.byRoot.set(root, frozen);
    if (this.lastRoot === root) this.lastRoot = '';
    this.onNew?.(root, frozen);
  }

  /** The root of a key (`/apps/deployments` of `/apps/deployments/ns/name`), '' when it has none. */
  rootOf(key: string): string {
    if (key.length < 2 || key.charCodeAt(0) !== 47 /* '/' */) return '';
    const end1 = key.indexOf('/', 1);
    const first = end1 < 0 ? key.slice(1) : key.slice(1, end1);
    if (first === '') return '';
    if (end1 < 0 || !(first.includes('.') || DOTLESS_GROUPS.has(first))) return `/${first}`;
    const end2 = key.indexOf('/', end1 + 1);
    return end2 < 0 ? key : key.slice(0, end2);
  }

  /** The last root answered: requests come in runs on one resource, and matching it allocates nothing. */
  private lastRoot = '';
  private lastResource: GroupResource = NO_RESOURCE;

  /** The group and resource of a key or prefix. */
  of(key: string): GroupResource {
    const last = this.lastRoot;
    if (
      last !== '' &&
      key.startsWith(last) &&
      (key.length === last.length || key.charCodeAt(last.length) === 47) /* '/' */
    ) {
      return this.lastResource;
    }
    return this.lookup(key);
  }

  private lookup(key: string): GroupResource {
    const root = this.rootOf(key);
    if (root === '') return NO_RESOURCE;
    let gr = this.byRoot.get(root);
    if (gr === undefined) {
      const slash = root.indexOf('/', 1);
      gr =
        slash < 0
          ? { group: '', resource: root.slice(1) }
          : { group: root.slice(1, slash), resource: root.slice(slash + 1) };
      if (gr.resource === '') gr = { group: '', resource: gr.group };
      gr = Object.freeze(gr);
      this.byRoot.set(root, gr);
      this.onNew?.(root, gr);
    }
    this.lastRoot = root;
    this.lastResource = gr;
    return gr;
  }

  /** Every root seen or registered, with its resource. */
  roots(): IterableIterator<[string, GroupResource]> {
    return this.byRoot.entries();
  }
}
