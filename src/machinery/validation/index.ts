// Validation building blocks shared by every kind: name formats (DNS labels and subdomains, path
// segments), label keys and values, name generation, and the checks of object metadata on create
// and update. Returns field errors and upstream's message strings. Imports only machinery/.

export * from './bootstrap-token.ts';
export * from './names.ts';
