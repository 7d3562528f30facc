// PKI for the embedded default: the CA, serving and admin client certificates kept in the data
// directory. Node's own crypto reads them; the generator library loads only when something is new.

export * from './ensure-pki.ts';
