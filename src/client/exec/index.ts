// Exec credential plugins: the `exec` stanza of a platconfig user and the credential source that
// runs the plugin, speaks ExecCredential to it and caches what it answers. May import naming/ and
// the client's contracts (../api.ts).

export * from './exec-config.ts';
export * from './exec-credential.ts';
export * from './exec-credential-source.ts';
