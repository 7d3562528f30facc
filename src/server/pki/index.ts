// PKI for the embedded default: the CA, serving and admin client certificates kept in the data
// directory, written and read with node:crypto alone.

export * from './ensure-pki.ts';
