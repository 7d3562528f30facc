// The client configuration file (platconfig): the format kubectl reads from --kubeconfig, so the
// admin credentials the server generates work with stock clients as they are.

import { stringify } from 'yaml';

export interface ClientConfigInput {
  clusterName: string;
  server: string;
  caPem: string;
  userName: string;
  /** Client certificate authentication. */
  clientCertPem?: string;
  clientKeyPem?: string;
  /** Bearer token authentication. */
  token?: string;
}

const b64 = (s: string) => Buffer.from(s).toString('base64');

export function renderClientConfig(input: ClientConfigInput): string {
  const user: Record<string, string> = {};
  if (input.clientCertPem !== undefined) user['client-certificate-data'] = b64(input.clientCertPem);
  if (input.clientKeyPem !== undefined) user['client-key-data'] = b64(input.clientKeyPem);
  if (input.token !== undefined) user.token = input.token;
  const context = `${input.userName}@${input.clusterName}`;
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      {
        name: input.clusterName,
        cluster: { server: input.server, 'certificate-authority-data': b64(input.caPem) },
      },
    ],
    users: [{ name: input.userName, user }],
    contexts: [{ name: context, context: { cluster: input.clusterName, user: input.userName } }],
    'current-context': context,
    preferences: {},
  });
}
