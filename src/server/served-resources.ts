// The resources this server serves: each kind's definition beside the generic store over it, looked
// up by group, version and resource. Built once at startup from the API groups' kind definitions.

import { type FieldFilter, FieldManager, onlyField, SchemaTypes, withoutField } from '../apply/index.ts';
import type { ApiObject } from '../machinery/object.ts';
import type { NamingProfile } from '../naming/profile.ts';
import { ConvertingStorage } from '../registry/converting-storage.ts';
import { GenericStore } from '../registry/generic-store.ts';
import type { KindDefinition } from '../registry/kind.ts';
import { groupVersionOf, type ResourceInfo } from '../registry/resource.ts';
import type { ReadAt, Storage } from '../storage/interface.ts';
import { aliasKind } from './group-aliases.ts';

export interface ServedResource {
  kind: KindDefinition;
  store: GenericStore;
  /** The field manager of writes through the resource ('') or one of its subresources. */
  fields(subresource: string): FieldManager;
  /** For a resource served under an upstream-named alias group: the canonical one (group-aliases.ts). */
  aliasOf?: ServedResource;
}

const WITHOUT_STATUS = withoutField('status');
const ONLY_STATUS = onlyField('status');

/** What a write through an endpoint cannot own: the status through the main resource, all but it through /status. */
function resetFilter(kind: KindDefinition, subresource: string): FieldFilter | undefined {
  if (subresource === '' && kind.strategy.hasStatus) return WITHOUT_STATUS;
  if (subresource === 'status') return ONLY_STATUS;
  return undefined;
}

function fieldManagers(kind: KindDefinition): (subresource: string) => FieldManager {
  const bySubresource = new Map<string, FieldManager>();
  let types: SchemaTypes | undefined;
  return (subresource) => {
    let fm = bySubresource.get(subresource);
    if (fm === undefined) {
      types ??= new SchemaTypes(kind.schema);
      fm = new FieldManager({
        group: kind.resource.group,
        version: kind.resource.version,
        kind: kind.resource.kind,
        type: types.root(),
        subresource,
        filter: resetFilter(kind, subresource),
      });
      bySubresource.set(subresource, fm);
    }
    return fm;
  };
}

export class ServedResources {
  private readonly byPath = new Map<string, ServedResource>();
  private readonly groupVersions = new Set<string>();
  /** The canonical resources: what controllers and the codecs start from. */
  readonly list: ServedResource[] = [];
  /**
   * The same resources under upstream-named alias groups. Advertised after the canonical ones
   * (discovery, OpenAPI), so clients that map kinds through discovery (kubectl apply of an
   * upstream-named manifest, controller-runtime's REST mapper) find them, while a bare resource
   * name (`kubectl get roles`) still resolves to the canonical group, which comes first.
   */
  readonly aliases: ServedResource[] = [];
  /** Alias group to canonical group. */
  readonly groupAliases = new Map<string, string>();

  /** With a naming profile that renames groups, each renamed group is also served under its alias. */
  constructor(kinds: readonly KindDefinition[], storage: Storage, profile?: NamingProfile) {
    for (const kind of kinds) {
      const { storedAs } = kind;
      // A kind stored as another resource's objects reads and writes them through its conversions.
      const kindStorage = storedAs === undefined ? storage : new ConvertingStorage(storage, storedAs);
      const keyRoot =
        storedAs === undefined
          ? undefined
          : `/${storedAs.group === '' ? '' : `${storedAs.group}/`}${storedAs.resource}`;
      const served: ServedResource = {
        kind,
        store: new GenericStore(kindStorage, kind.resource, kind.strategy, keyRoot),
        fields: fieldManagers(kind),
      };
      this.list.push(served);
      this.byPath.set(pathKey(kind.resource.group, kind.resource.version, kind.resource.resource), served);
      this.groupVersions.add(groupVersionOf(kind.resource));
      const alias = profile === undefined ? undefined : aliasKind(profile, kind);
      if (alias === undefined) continue;
      const aliased: ServedResource = {
        kind: alias,
        store: new GenericStore(kindStorage, alias.resource, alias.strategy, served.store.keyRoot),
        fields: fieldManagers(alias),
        aliasOf: served,
      };
      this.aliases.push(aliased);
      this.byPath.set(
        pathKey(alias.resource.group, alias.resource.version, alias.resource.resource),
        aliased,
      );
      this.groupAliases.set(alias.resource.group, kind.resource.group);
    }
  }

  /** Every kind OpenAPI documents: the canonical ones, then their aliases. */
  advertisedKinds(): KindDefinition[] {
    return [...this.list, ...this.aliases].map((r) => r.kind);
  }

  /** The resources kept in storage (not the reviews): what controllers list and watch. */
  get stored(): ServedResource[] {
    return this.list.filter((r) => r.kind.review === undefined);
  }

  lookup(group: string, version: string, resource: string): ServedResource | undefined {
    return this.byPath.get(pathKey(group, version, resource));
  }

  servesGroupVersion(group: string, version: string): boolean {
    return this.groupVersions.has(groupVersionOf({ group, version }));
  }

  /** Each resource's names, with the kind of every sub-resource served in another shape. */
  resources(): ResourceInfo[] {
    return [...this.list, ...this.aliases].map(({ kind }) => {
      if (kind.views === undefined && kind.actions === undefined) return kind.resource;
      const subresourceKinds = Object.fromEntries(
        Object.entries({ ...kind.views, ...kind.actions }).map(([name, v]) => [
          name,
          { group: v.schema.group, version: v.schema.version, kind: v.schema.kind },
        ]),
      );
      return { ...kind.resource, subresourceKinds };
    });
  }

  /** Reads a namespace, or undefined when it does not exist (for admission). */
  async namespace(name: string): Promise<ApiObject | undefined> {
    const ns = this.lookup('', 'v1', 'namespaces');
    if (ns === undefined) return undefined;
    // From the watch cache, as upstream's admission reads its namespace lister (on etcd a live read
    // was a second etcd request per create); a miss is checked live, since a namespace created a
    // moment ago may not have reached the cache yet.
    for (const at of [CACHED, undefined]) {
      try {
        return await ns.store.get('', name, at);
      } catch (err) {
        if ((err as { code?: number }).code !== 404) throw err;
      }
    }
    return undefined;
  }
}

/** Any revision the watch cache holds (resourceVersion "0"). */
const CACHED: ReadAt = { kind: 'notOlderThan', revision: 0 };

function pathKey(group: string, version: string, resource: string): string {
  return `${group}/${version}/${resource}`;
}
