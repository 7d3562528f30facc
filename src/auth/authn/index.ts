// Authentication: one authenticator per file (client certificates, static tokens, ...) and the chain
// in front of them. Imports nothing from the server; the server adapts its requests to AuthnRequest.

export * from './bearer.ts';
export * from './bearer-token.ts';
export * from './config.ts';
export * from './options.ts';
export * from './token-cache.ts';
export * from './token-file.ts';
export * from './token-union.ts';
export * from './types.ts';
export * from './union.ts';
export * from './x509.ts';
