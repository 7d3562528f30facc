// Auth: authn/ (who is asking) and, with a later issue, authz/ (may they). Imports machinery/ and
// naming/ only.

export * from './authn/index.ts';
