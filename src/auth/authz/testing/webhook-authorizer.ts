// A webhook authorizer for tests: HTTPS on loopback with a CA of its own, answering each
// SubjectAccessReview by a rule the test gives (or by hanging, or with garbage), remembering what
// it was sent. `writeClientConfig` writes the client configuration file that points at it.

import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createCa, createLeaf, type KeyAndCert } from '../../../server/pki/generate.ts';

export type Review = { apiVersion: string; kind: string; spec: Record<string, unknown> };

/** What to answer: a status, a raw reply, or nothing at all (the connection hangs). */
export type Answer =
  | { status: Record<string, unknown>; apiVersion?: string }
  | { raw: string; code?: number }
  | 'hang';

export interface TestAuthzWebhook {
  url: string;
  ca: KeyAndCert;
  /** Every review received, in order. */
  seen: Review[];
  /** Writes a client configuration file for it into `dir`; returns its path. */
  writeClientConfig(dir: string, name?: string): string;
  stop(): Promise<void>;
}

export async function startAuthzWebhook(rule: (review: Review) => Answer): Promise<TestAuthzWebhook> {
  const ca = await createCa('authz-webhook-ca', 1);
  const serving = await createLeaf(ca, {
    commonName: 'authz-webhook',
    hosts: ['127.0.0.1'],
    usage: 'server',
    validDays: 1,
  });
  const seen: Review[] = [];
  const hanging = new Set<() => void>();
  const server: Server = createServer({ key: serving.keyPem, cert: serving.certPem }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (d: Buffer) => chunks.push(d));
    req.on('end', () => {
      const review = JSON.parse(Buffer.concat(chunks).toString()) as Review;
      seen.push(review);
      const answer = rule(review);
      if (answer === 'hang') {
        hanging.add(() => res.destroy());
        return;
      }
      if ('raw' in answer) {
        res.writeHead(answer.code ?? 200, { 'content-type': 'application/json' }).end(answer.raw);
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          apiVersion: answer.apiVersion ?? review.apiVersion,
          kind: 'SubjectAccessReview',
          status: answer.status,
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/authorize`;
  return {
    url,
    ca,
    seen,
    writeClientConfig(dir, name = 'authz-webhook.yaml') {
      const caFile = join(dir, `${name}.ca.crt`);
      writeFileSync(caFile, ca.certPem);
      const file = join(dir, name);
      writeFileSync(
        file,
        [
          'apiVersion: v1',
          'kind: Config',
          'clusters:',
          '- name: authz',
          '  cluster:',
          `    server: ${url}`,
          `    certificate-authority: ${caFile}`,
          'users:',
          '- name: apiserver',
          '  user:',
          '    token: webhook-secret',
          'contexts:',
          '- name: default',
          '  context:',
          '    cluster: authz',
          '    user: apiserver',
          'current-context: default',
          '',
        ].join('\n'),
      );
      return file;
    },
    async stop() {
      for (const h of hanging) h();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
