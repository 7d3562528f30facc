// Auth: authn/ (who is asking) and authz/ (may they). Imports machinery/ and naming/ only.

export * from './authn/index.ts';
export * from './authz/index.ts';
