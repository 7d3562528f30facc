// Client side: the client configuration file now; the REST client, watch and informers later.
// May import machinery/ and naming/.

export * from './client-config.ts';
