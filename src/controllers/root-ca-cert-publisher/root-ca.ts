// The CA bundle the root CA publisher and the token controller hand out: the file
// SAController.RootCAFile names (every PEM block a certificate, at least one), or else the
// authority the manager's own client trusts, as upstream falls back to its client's CA data.

import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { ControllerContext } from '../controller.ts';
import { configSection, messageOf, stringField } from '../controller-support.ts';
import type { SAControllerConfiguration } from '../manager/config/types-controllers.ts';

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----[\s\S]*?-----END \1-----/g;

/** Throws unless `pem` holds at least one certificate and nothing but certificates. */
export function checkCertificatesPem(pem: string): void {
  let count = 0;
  for (const m of pem.matchAll(PEM_BLOCK)) {
    if (m[1] !== 'CERTIFICATE') continue;
    try {
      new X509Certificate(m[0]);
    } catch (err) {
      throw new Error(`failed to parse certificate: ${messageOf(err)}`);
    }
    count++;
  }
  if (count === 0) throw new Error('data does not contain any valid RSA or ECDSA certificates');
}

/** The root CA bundle (PEM text) for `ctx`; throws naming the file when it cannot be used. */
export function rootCAOf(ctx: Pick<ControllerContext, 'config' | 'clientCA'>): string {
  const file = stringField(configSection<SAControllerConfiguration>(ctx.config, 'SAController').RootCAFile);
  if (file === '') return ctx.clientCA ?? '';
  try {
    const pem = readFileSync(file, 'utf8');
    checkCertificatesPem(pem);
    return pem;
  } catch (err) {
    throw new Error(`error parsing root-ca-file at ${file}: ${messageOf(err)}`);
  }
}
