// Moving from client-side to server-side apply with kubectl. An object kubectl applied client-side
// carries its last configuration in an annotation; kubectl's first server-side apply may then take
// over the fields that configuration still describes unchanged, instead of conflicting with the
// "kubectl-client-side-apply" updater. Afterwards the annotation is kept current, so that a return
// to client-side apply computes the right patch.

import { UPSTREAM_ALIASES } from '../../naming/index.ts';
import { Conflicts } from '../merge/updater.ts';
import { compare } from '../typed/compare.ts';
import { toFieldSet } from '../typed/to-field-set.ts';
import type { TypeRef } from '../typed/types.ts';
import { isObject, type Json, type JsonObject } from '../value.ts';
import type { Managed } from './managed.ts';
import type { Manager, Written } from './manager.ts';
import { withoutManagedFields } from './structured.ts';

const KUBECTL = 'kubectl';
const ANNOTATION = UPSTREAM_ALIASES.lastAppliedAnnotation;
/** Upstream's limit on the total size of an object's annotations. */
const MAX_ANNOTATIONS_BYTES = 256 * 1024;

function annotationsOf(obj: JsonObject): JsonObject | undefined {
  const meta = obj.metadata;
  if (!isObject(meta)) return undefined;
  return isObject(meta.annotations) ? meta.annotations : undefined;
}

/** JSON as Go writes a map: keys sorted, HTML characters escaped, then a newline. */
function sortedJson(v: Json): string {
  const walk = (x: Json): string => {
    if (Array.isArray(x)) return `[${x.map(walk).join(',')}]`;
    if (isObject(x)) {
      const keys = Object.keys(x).sort();
      return `{${keys.map((k) => `${escapeHtml(JSON.stringify(k))}:${walk(x[k])}`).join(',')}}`;
    }
    return escapeHtml(JSON.stringify(x));
  };
  return `${walk(v)}\n`;
}

function escapeHtml(text: string): string {
  return text.replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export class LastAppliedManager implements Manager {
  constructor(
    private readonly inner: Manager,
    private readonly type: TypeRef,
    private readonly apiVersion: string,
  ) {}

  update(live: JsonObject, next: JsonObject, managed: Managed, manager: string): Written {
    return this.inner.update(live, next, managed, manager);
  }

  apply(live: JsonObject, config: JsonObject, managed: Managed, manager: string, force: boolean): Written {
    try {
      return this.inner.apply(live, config, managed, manager, force);
    } catch (err) {
      if (manager !== KUBECTL || !(err instanceof Conflicts)) throw err;
      const allowed = this.allowedConflicts(live);
      if (allowed === undefined) throw err;
      const rest = err.conflicts.filter((c) => !allowed.has(c.path));
      if (rest.length > 0) throw new Conflicts(rest);
      return this.inner.apply(live, config, managed, manager, true);
    }
  }

  /** Fields the last client-side configuration set and the live object still holds unchanged. */
  private allowedConflicts(live: JsonObject) {
    const text = annotationsOf(live)?.[ANNOTATION];
    if (typeof text !== 'string' || text === '') return undefined;
    let last: Json;
    try {
      last = JSON.parse(text) as Json;
    } catch {
      return undefined;
    }
    if (!isObject(last) || last.apiVersion !== this.apiVersion) return undefined;
    try {
      const changed = compare(last, withoutManagedFields(live), this.type);
      return toFieldSet(last, this.type)
        .difference(changed.modified)
        .difference(changed.added)
        .difference(changed.removed);
    } catch {
      return undefined;
    }
  }
}

export class LastAppliedUpdater implements Manager {
  constructor(private readonly inner: Manager) {}

  update(live: JsonObject, next: JsonObject, managed: Managed, manager: string): Written {
    return this.inner.update(live, next, managed, manager);
  }

  apply(live: JsonObject, config: JsonObject, managed: Managed, manager: string, force: boolean): Written {
    const out = this.inner.apply(live, config, managed, manager, force);
    const result = out.object ?? live;
    const annotations = annotationsOf(result);
    if (
      manager !== KUBECTL ||
      typeof annotations?.[ANNOTATION] !== 'string' ||
      annotations[ANNOTATION] === ''
    ) {
      return out;
    }
    const applied = structuredClone(config);
    const appliedAnnotations = annotationsOf(applied);
    if (appliedAnnotations !== undefined) {
      delete appliedAnnotations[ANNOTATION];
      if (Object.keys(appliedAnnotations).length === 0) delete (applied.metadata as JsonObject).annotations;
    }
    const value = sortedJson(applied);
    const object = structuredClone(result);
    const target = annotationsOf(object) as JsonObject;
    target[ANNOTATION] = value;
    let size = 0;
    for (const [k, v] of Object.entries(target))
      size += k.length + (typeof v === 'string' ? Buffer.byteLength(v) : 0);
    if (size > MAX_ANNOTATIONS_BYTES) delete target[ANNOTATION];
    return { object, managed: out.managed };
  }
}
