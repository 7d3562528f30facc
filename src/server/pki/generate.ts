// Certificate generation for the embedded default: a CA, a serving certificate and client
// certificates it signs, ECDSA P-256 with SHA-256. Keys and signatures come from node:crypto and the
// certificate structure from der.ts, so a fresh data directory costs a few milliseconds.

import {
  createHash,
  createPrivateKey,
  generateKeyPairSync,
  type KeyObject,
  randomBytes,
  sign,
  X509Certificate,
} from 'node:crypto';
import {
  bitString,
  boolean,
  children,
  contents,
  explicit,
  implicit,
  namedBits,
  objectIdentifier,
  octetString,
  sequence,
  set,
  smallInteger,
  time,
  unsignedInteger,
  utf8String,
} from './der.ts';

const DAY_MS = 86_400_000;

const OID = {
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
  commonName: '2.5.4.3',
  organization: '2.5.4.10',
  subjectKeyIdentifier: '2.5.29.14',
  keyUsage: '2.5.29.15',
  subjectAltName: '2.5.29.17',
  basicConstraints: '2.5.29.19',
  authorityKeyIdentifier: '2.5.29.35',
  extKeyUsage: '2.5.29.37',
  serverAuth: '1.3.6.1.5.5.7.3.1',
  clientAuth: '1.3.6.1.5.5.7.3.2',
};

/** RFC 5280 key usage bit numbers. */
const KEY_USAGE = { digitalSignature: 0, keyEncipherment: 2, keyCertSign: 5, cRLSign: 6 };

export interface KeyAndCert {
  certPem: string;
  keyPem: string;
}

function newKeys(): { privateKey: KeyObject; publicKey: KeyObject } {
  return generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
}

function serial(): Buffer {
  // 16 random bytes, positive and without a leading zero byte, so the INTEGER is always 16 long.
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0] & 0x7f) | 0x40;
  return unsignedInteger(bytes);
}

/** O values then CN, one attribute per RDN, as Go's pkix.Name writes them. */
function distinguishedName(cn: string, orgs: string[] = []): Buffer {
  const rdn = (oid: string, value: string) => set(sequence(objectIdentifier(oid), utf8String(value)));
  return sequence(...orgs.map((o) => rdn(OID.organization, o)), rdn(OID.commonName, cn));
}

/** SHA-1 of the public key's bits: RFC 5280's first method for key identifiers. */
function keyIdentifier(spki: Buffer): Buffer {
  const [, keyBits] = children(spki);
  return createHash('sha1').update(contents(keyBits).subarray(1)).digest();
}

function extension(oid: string, critical: boolean, value: Buffer): Buffer {
  return critical
    ? sequence(objectIdentifier(oid), boolean(true), octetString(value))
    : sequence(objectIdentifier(oid), octetString(value));
}

function ipBytes(ip: string): Buffer {
  if (ip.includes(':')) {
    const [head, tail = ''] = ip.split('::');
    const parts = (s: string) => (s === '' ? [] : s.split(':'));
    const h = parts(head);
    const t = ip.includes('::') ? parts(tail) : [];
    const groups = [...h, ...Array(8 - h.length - t.length).fill('0'), ...t];
    return Buffer.from(groups.flatMap((g) => [(parseInt(g, 16) >> 8) & 0xff, parseInt(g, 16) & 0xff]));
  }
  return Buffer.from(ip.split('.').map(Number));
}

const isIp = (host: string) => /^[\d.]+$|:/.test(host);

interface CertificateFields {
  subject: Buffer;
  issuer: Buffer;
  spki: Buffer;
  validDays: number;
  extensions: Buffer[];
  signer: KeyObject;
}

function issue(f: CertificateFields): string {
  const now = Date.now();
  const algorithm = sequence(objectIdentifier(OID.ecdsaWithSha256));
  const tbs = sequence(
    explicit(0, smallInteger(2)), // v3
    serial(),
    algorithm,
    f.issuer,
    sequence(time(new Date(now - 60_000)), time(new Date(now + f.validDays * DAY_MS))),
    f.subject,
    f.spki,
    explicit(3, sequence(...f.extensions)),
  );
  const signature = sign('sha256', tbs, f.signer);
  const der = sequence(tbs, algorithm, bitString(signature));
  const body = der
    .toString('base64')
    .replace(/(.{64})/g, '$1\n')
    .replace(/\n$/, '');
  return `-----BEGIN CERTIFICATE-----\n${body}\n-----END CERTIFICATE-----\n`;
}

const keyPem = (key: KeyObject) => key.export({ type: 'pkcs8', format: 'pem' }).toString();

export async function createCa(commonName: string, validDays: number): Promise<KeyAndCert> {
  const keys = newKeys();
  const spki = keys.publicKey.export({ type: 'spki', format: 'der' });
  const name = distinguishedName(commonName);
  const certPem = issue({
    subject: name,
    issuer: name,
    spki,
    validDays,
    signer: keys.privateKey,
    extensions: [
      extension(
        OID.keyUsage,
        true,
        namedBits([KEY_USAGE.digitalSignature, KEY_USAGE.keyCertSign, KEY_USAGE.cRLSign]),
      ),
      extension(OID.basicConstraints, true, sequence(boolean(true))),
      extension(OID.subjectKeyIdentifier, false, octetString(keyIdentifier(spki))),
    ],
  });
  return { certPem, keyPem: keyPem(keys.privateKey) };
}

export interface LeafRequest {
  commonName: string;
  organizations?: string[];
  /** DNS names and IP addresses for a serving certificate; absent for client certificates. */
  hosts?: string[];
  usage: 'server' | 'client';
  validDays: number;
}

/** The CA certificate's subject exactly as encoded, so the leaf's issuer matches byte for byte. */
function subjectOf(cert: X509Certificate): Buffer {
  const [tbs] = children(cert.raw);
  const fields = children(tbs);
  // Version is the optional [0] first field; subject follows serial, algorithm, issuer and validity.
  const offset = fields[0][0] === 0xa0 ? 1 : 0;
  return fields[offset + 4];
}

export async function createLeaf(ca: KeyAndCert, req: LeafRequest): Promise<KeyAndCert> {
  const keys = newKeys();
  const caCert = new X509Certificate(ca.certPem);
  const caSpki = caCert.publicKey.export({ type: 'spki', format: 'der' });
  const spki = keys.publicKey.export({ type: 'spki', format: 'der' });
  const extensions = [
    extension(OID.keyUsage, true, namedBits([KEY_USAGE.digitalSignature, KEY_USAGE.keyEncipherment])),
    extension(
      OID.extKeyUsage,
      false,
      sequence(objectIdentifier(req.usage === 'server' ? OID.serverAuth : OID.clientAuth)),
    ),
    extension(OID.basicConstraints, true, sequence()),
    extension(OID.authorityKeyIdentifier, false, sequence(implicit(0, keyIdentifier(caSpki)))),
  ];
  if (req.hosts && req.hosts.length > 0) {
    const names = req.hosts.map((h) =>
      isIp(h) ? implicit(7, ipBytes(h)) : implicit(2, Buffer.from(h, 'ascii')),
    );
    extensions.push(extension(OID.subjectAltName, false, sequence(...names)));
  }
  const certPem = issue({
    subject: distinguishedName(req.commonName, req.organizations),
    issuer: subjectOf(caCert),
    spki,
    validDays: req.validDays,
    signer: createPrivateKey(ca.keyPem),
    extensions,
  });
  return { certPem, keyPem: keyPem(keys.privateKey) };
}
