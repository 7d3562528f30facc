// The client configuration file: the format kubectl reads from --kubeconfig, so the
// admin credentials the server generates work with stock clients as they are.

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

/** A YAML scalar: JSON's double-quoted strings are valid YAML and need no YAML library. */
const q = (s: string) => JSON.stringify(s);

/**
 * The file is a fixed shape, so it is written directly: loading a YAML library for it would cost
 * every server start time and memory (the YAML codec loads on the first YAML request instead).
 */
export function renderClientConfig(input: ClientConfigInput): string {
  const user: string[] = [];
  if (input.clientCertPem !== undefined) user.push(`client-certificate-data: ${q(b64(input.clientCertPem))}`);
  if (input.clientKeyPem !== undefined) user.push(`client-key-data: ${q(b64(input.clientKeyPem))}`);
  if (input.token !== undefined) user.push(`token: ${q(input.token)}`);
  const context = `${input.userName}@${input.clusterName}`;
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    `  - name: ${q(input.clusterName)}`,
    '    cluster:',
    `      server: ${q(input.server)}`,
    `      certificate-authority-data: ${q(b64(input.caPem))}`,
    'users:',
    `  - name: ${q(input.userName)}`,
    user.length === 0 ? '    user: {}' : `    user:\n${user.map((l) => `      ${l}`).join('\n')}`,
    'contexts:',
    `  - name: ${q(context)}`,
    '    context:',
    `      cluster: ${q(input.clusterName)}`,
    `      user: ${q(input.userName)}`,
    `current-context: ${q(context)}`,
    'preferences: {}',
    '',
  ].join('\n');
}
