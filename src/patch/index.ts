// Patches: JSON Patch (RFC 6902), JSON Merge Patch (RFC 7386) and strategic merge patch driven by
// a kind's schema. Pure functions over JSON values; errors are PatchError with upstream's wording,
// which the PATCH handler turns into Statuses. Imports schema/ and codec/depth.ts (the nesting bound).

export * from './errors.ts';
export * from './json-patch.ts';
export * from './merge-patch.ts';
export * from './strategic-merge.ts';
