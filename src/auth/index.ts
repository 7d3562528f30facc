// Auth: authn/ (who is asking), authz/ (may they) and webhook-call.ts (the webhook transport both
// use). Imports machinery/ and naming/ only.

export * from './authn/index.ts';
export * from './authz/index.ts';
