// The data directory's credentials: created on first start, reused on every later one.

import { X509Certificate } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KeyAndCert } from './generate.ts';

export interface Pki {
  ca: KeyAndCert;
  serving: KeyAndCert;
  admin: KeyAndCert;
  /** Paths of the files, for flags and messages. */
  files: { caCert: string; servingCert: string; servingKey: string; adminCert: string; adminKey: string };
}

export interface PkiOptions {
  dir: string;
  caName: string;
  /** Names the serving certificate must cover. */
  hosts: string[];
  adminUser: string;
  adminGroups: string[];
}

function readPair(dir: string, stem: string): KeyAndCert | undefined {
  const cert = join(dir, `${stem}.crt`);
  const key = join(dir, `${stem}.key`);
  if (!existsSync(cert) || !existsSync(key)) return undefined;
  const pair = { certPem: readFileSync(cert, 'utf8'), keyPem: readFileSync(key, 'utf8') };
  // Expired or unreadable material is replaced rather than served.
  try {
    if (new Date(new X509Certificate(pair.certPem).validTo).getTime() < Date.now()) return undefined;
  } catch {
    return undefined;
  }
  return pair;
}

function writePair(dir: string, stem: string, pair: KeyAndCert): void {
  writeFileSync(join(dir, `${stem}.crt`), pair.certPem, { mode: 0o644 });
  writeFileSync(join(dir, `${stem}.key`), pair.keyPem, { mode: 0o600 });
}

function servingCovers(pair: KeyAndCert, hosts: string[]): boolean {
  const cert = new X509Certificate(pair.certPem);
  return hosts.every((h) =>
    /^[\d.]+$|:/.test(h) ? cert.checkIP(h) !== undefined : cert.checkHost(h) !== undefined,
  );
}

export async function ensurePki(opts: PkiOptions): Promise<Pki> {
  mkdirSync(opts.dir, { recursive: true, mode: 0o700 });
  const files = {
    caCert: join(opts.dir, 'ca.crt'),
    servingCert: join(opts.dir, 'apiserver.crt'),
    servingKey: join(opts.dir, 'apiserver.key'),
    adminCert: join(opts.dir, 'admin.crt'),
    adminKey: join(opts.dir, 'admin.key'),
  };
  let ca = readPair(opts.dir, 'ca');
  let serving = ca && readPair(opts.dir, 'apiserver');
  let admin = ca && readPair(opts.dir, 'admin');
  if (ca && serving && admin && servingCovers(serving, opts.hosts)) return { ca, serving, admin, files };

  const gen = await import('./generate.ts');
  const freshCa = ca === undefined;
  if (freshCa) {
    ca = await gen.createCa(opts.caName, 3650);
    writePair(opts.dir, 'ca', ca);
  }
  const signer = ca!;
  if (freshCa || serving === undefined || !servingCovers(serving, opts.hosts)) {
    serving = await gen.createLeaf(signer, {
      commonName: opts.caName.replace(/-ca$/, ''),
      hosts: opts.hosts,
      usage: 'server',
      validDays: 365,
    });
    writePair(opts.dir, 'apiserver', serving);
  }
  if (freshCa || admin === undefined) {
    admin = await gen.createLeaf(signer, {
      commonName: opts.adminUser,
      organizations: opts.adminGroups,
      usage: 'client',
      validDays: 365,
    });
    writePair(opts.dir, 'admin', admin);
  }
  return { ca: signer, serving: serving!, admin: admin!, files };
}
