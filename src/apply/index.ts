// Server-side apply, layered like structured-merge-diff: JSON values (value.ts), field paths and
// sets with their FieldsV1 encoding (fieldpath/), schema-driven walks over objects (typed/), the
// ownership rules of update and apply (merge/), and the field manager that reads and writes
// metadata.managedFields, one decorator per file (managedfields/).

export { FieldSet } from './fieldpath/set.ts';
export { FieldManager, type FieldManagerOptions } from './managedfields/field-manager.ts';
export { onlyField, withoutField } from './merge/reset-filters.ts';
export type { FieldFilter } from './merge/updater.ts';
export { DEDUCED, SchemaTypes, type TypeRef } from './typed/types.ts';
export type { Json, JsonObject } from './value.ts';
