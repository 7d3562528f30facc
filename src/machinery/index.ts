// Machinery: object metadata helpers and the shapes shared by every layer above. Imports nothing
// from the rest of src/ except naming/.

export * from './object.ts';
