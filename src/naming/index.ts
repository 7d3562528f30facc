// Naming: the only place that spells a brand word. Everything else asks a NamingProfile for group
// domains, label prefixes and component names. Imports nothing.

export * from './bootstrap-tokens.ts';
export * from './client.ts';
export * from './client-authentication.ts';
export * from './controller-manager.ts';
export * from './controller-objects.ts';
export * from './deprecated-api-annotations.ts';
export * from './finalizers.ts';
export * from './group-aliases.ts';
export * from './node-agents.ts';
export * from './node-wire-fields.ts';
export * from './openapi-extensions.ts';
export * from './profile.ts';
export * from './simulated-nodes.ts';
