// Machinery: object metadata helpers and the shapes shared by every layer above. Imports nothing
// from the rest of src/ except naming/.

export type * from './authorization.ts';
export * from './duration.ts';
export type { FieldCause, FieldError, FieldErrorType, PathLike } from './field-errors.ts';
// Field error constructors share names with the Status constructors (invalid, forbidden,
// notFound), as upstream's field and errors packages do, so they are reached as `field.invalid`.
export * as field from './field-errors.ts';
export { FieldPath, newPath } from './field-errors.ts';
export * from './fields.ts';
export * from './labels.ts';
export * from './object.ts';
export * from './quantity.ts';
export * from './status.ts';
export * from './validation/index.ts';
