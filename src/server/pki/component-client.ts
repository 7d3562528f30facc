// A client certificate for a component of the control plane (the controller manager), signed by
// the data directory's CA and kept in memory: the component authenticates as its own user, so RBAC
// gives it its own role rather than the admin's.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createLeaf, type KeyAndCert } from './generate.ts';

export interface ComponentCredentials extends KeyAndCert {
  /** The CA that signs the server's serving certificate, to trust it. */
  caPem: string;
}

export async function componentClientCertificate(
  dataDir: string,
  user: string,
  groups: string[] = [],
): Promise<ComponentCredentials> {
  const ca = {
    certPem: readFileSync(join(dataDir, 'ca.crt'), 'utf8'),
    keyPem: readFileSync(join(dataDir, 'ca.key'), 'utf8'),
  };
  const leaf = await createLeaf(ca, {
    commonName: user,
    organizations: groups,
    usage: 'client',
    validDays: 365,
  });
  return { ...leaf, caPem: ca.certPem };
}
