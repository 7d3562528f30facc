// Authorization: one authorizer per file (always, abac, webhook, node; rbac/ as a folder) and the
// chain in front of them, built in config.ts from --authorization-mode or an AuthorizationConfiguration
// file (authorization-config*.ts). Imports auth/authn (types, the webhook client configuration and
// the config-file reloader), cel/, machinery/ and naming/.

export * from './abac.ts';
export * from './always.ts';
export * from './authorization-config.ts';
export * from './authorization-config-validation.ts';
export * from './config.ts';
export * from './match-conditions.ts';
export * from './modes.ts';
export * from './node/index.ts';
export * from './options.ts';
export * from './privileged-groups.ts';
export * from './public-info.ts';
export * from './selectors.ts';
export type * from './types.ts';
export * from './union.ts';
export * from './webhook.ts';
