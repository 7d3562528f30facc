// Client certificates for the simulated node agents and their scheduler, signed by the server's
// client CA in memory: a node agent is `system:node:<name>` in `system:nodes`, the scheduler its
// profile's scheduler user, so the Node authorizer and RBAC judge each as upstream judges its own.

import type { NamingProfile } from '../naming/profile.ts';
import { simulatedNodeNames } from '../naming/simulated-nodes.ts';
import { createLeaf } from '../server/pki/generate.ts';

export interface CertificateAuthority {
  certPem: string;
  keyPem: string;
}

export interface ClientCertificate {
  certPem: string;
  keyPem: string;
}

/** A year, as the control plane's own component certificates. */
const VALID_DAYS = 365;

export function nodeClientCertificate(
  ca: CertificateAuthority,
  nodeName: string,
  profile: NamingProfile,
): Promise<ClientCertificate> {
  const n = simulatedNodeNames(profile);
  return createLeaf(ca, {
    commonName: `${n.nodeUserPrefix}${nodeName}`,
    organizations: [n.nodesGroup],
    usage: 'client',
    validDays: VALID_DAYS,
  });
}

export function schedulerClientCertificate(
  ca: CertificateAuthority,
  profile: NamingProfile,
): Promise<ClientCertificate> {
  return createLeaf(ca, {
    commonName: simulatedNodeNames(profile).schedulerUser,
    organizations: [],
    usage: 'client',
    validDays: VALID_DAYS,
  });
}
