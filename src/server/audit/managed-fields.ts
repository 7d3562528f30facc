// omitManagedFields: request and response objects recorded without metadata.managedFields, for an
// object, each item of a list, and each row object of a Table, as upstream strips them. The
// original is never changed (it may be the watch cache's): only the parts on the way to a
// managedFields are copied.

type Dict = Record<string, unknown>;

const isDict = (v: unknown): v is Dict => typeof v === 'object' && v !== null && !Array.isArray(v);

function withoutOwn(obj: Dict): Dict {
  const meta = obj.metadata;
  if (!isDict(meta) || !('managedFields' in meta)) return obj;
  const { managedFields: _dropped, ...rest } = meta;
  return { ...obj, metadata: rest };
}

export function withoutManagedFields(value: unknown): unknown {
  if (!isDict(value)) return value;
  let out = withoutOwn(value);
  if (Array.isArray(value.items)) {
    const items = value.items.map((i) => (isDict(i) ? withoutOwn(i) : i));
    out = { ...out, items };
  }
  if (value.kind === 'Table' && Array.isArray(value.rows)) {
    const rows = value.rows.map((r) =>
      isDict(r) && isDict(r.object) ? { ...r, object: withoutOwn(r.object) } : r,
    );
    out = { ...out, rows };
  }
  return out;
}
