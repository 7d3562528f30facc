// Certificate generation for the embedded default: a CA, a serving certificate and client
// certificates it signs. Loaded lazily (see ensure-pki.ts) because the X.509 library costs tens of
// milliseconds to import and is only needed the first time a data directory is used.

import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

type CryptoKey = webcrypto.CryptoKey;
type CryptoKeyPair = webcrypto.CryptoKeyPair;

// The library's parameter type is the DOM's Crypto, which Node's webcrypto implements.
x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
const DAY_MS = 86_400_000;

export interface KeyAndCert {
  certPem: string;
  keyPem: string;
}

async function newKeys(): Promise<CryptoKeyPair> {
  return (await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify'])) as CryptoKeyPair;
}

async function keyPem(key: CryptoKey): Promise<string> {
  const der = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', key));
  const body = der
    .toString('base64')
    .replace(/(.{64})/g, '$1\n')
    .replace(/\n$/, '');
  return `-----BEGIN PRIVATE KEY-----\n${body}\n-----END PRIVATE KEY-----\n`;
}

async function importKey(pem: string): Promise<CryptoKey> {
  const body = pem.replace(/-----(BEGIN|END) PRIVATE KEY-----/g, '').replace(/\s+/g, '');
  return webcrypto.subtle.importKey('pkcs8', Buffer.from(body, 'base64'), ALGORITHM, true, ['sign']);
}

function serial(): string {
  // Positive: the top bit of the first byte clear.
  const bytes = webcrypto.getRandomValues(new Uint8Array(16));
  bytes[0] &= 0x7f;
  return Buffer.from(bytes).toString('hex');
}

/** X.500 name from CN and O values, escaping what the DN string syntax reserves. */
function distinguishedName(cn: string, orgs: string[] = []): string {
  const esc = (v: string) => v.replace(/([,+"\\<>;=#])/g, '\\$1');
  return [...orgs.map((o) => `O=${esc(o)}`), `CN=${esc(cn)}`].join(', ');
}

export async function createCa(commonName: string, validDays: number): Promise<KeyAndCert> {
  const keys = await newKeys();
  const now = Date.now();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: distinguishedName(commonName),
    notBefore: new Date(now - 60_000),
    notAfter: new Date(now + validDays * DAY_MS),
    keys,
    signingAlgorithm: ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(
        x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign | x509.KeyUsageFlags.digitalSignature,
        true,
      ),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { certPem: cert.toString('pem'), keyPem: await keyPem(keys.privateKey) };
}

export interface LeafRequest {
  commonName: string;
  organizations?: string[];
  /** DNS names and IP addresses for a serving certificate; absent for client certificates. */
  hosts?: string[];
  usage: 'server' | 'client';
  validDays: number;
}

export async function createLeaf(ca: KeyAndCert, req: LeafRequest): Promise<KeyAndCert> {
  const keys = await newKeys();
  const caCert = new x509.X509Certificate(ca.certPem);
  const caKey = await importKey(ca.keyPem);
  const now = Date.now();
  const extensions: x509.Extension[] = [
    new x509.BasicConstraintsExtension(false, undefined, true),
    new x509.KeyUsagesExtension(
      x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment,
      true,
    ),
    new x509.ExtendedKeyUsageExtension(
      [req.usage === 'server' ? x509.ExtendedKeyUsage.serverAuth : x509.ExtendedKeyUsage.clientAuth],
      false,
    ),
    await x509.AuthorityKeyIdentifierExtension.create(caCert, false),
  ];
  if (req.hosts && req.hosts.length > 0) {
    extensions.push(
      new x509.SubjectAlternativeNameExtension(
        req.hosts.map((h) => ({ type: /^[\d.]+$|:/.test(h) ? ('ip' as const) : ('dns' as const), value: h })),
        false,
      ),
    );
  }
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: serial(),
    subject: distinguishedName(req.commonName, req.organizations),
    issuer: caCert.subject,
    notBefore: new Date(now - 60_000),
    notAfter: new Date(now + req.validDays * DAY_MS),
    signingKey: caKey,
    publicKey: keys.publicKey,
    signingAlgorithm: ALGORITHM,
    extensions,
  });
  return { certPem: cert.toString('pem'), keyPem: await keyPem(keys.privateKey) };
}
