// Test helpers for authentication: peers that tests start on loopback (an OpenID issuer).
// Used by tests only; may import the server's PKI generation for their certificates.

export * from './oidc-issuer.ts';
