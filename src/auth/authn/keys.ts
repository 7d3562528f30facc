// Keys of service account tokens: PEM files of public keys that verify (`--service-account-key-file`,
// which may also hold private keys or certificates, as upstream's reader takes them), the private
// key that signs (`--service-account-signing-key-file`), the JWS algorithm each key implies, and
// the key id upstream puts in the token header and the JWKS (base64url SHA-256 of the DER public
// key, so that other systems find the key a token names). A server started without a signing key
// generates one beside its PKI on first start and reads it back on every later start, so tokens
// outlive restarts.

import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  X509Certificate,
} from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

export type SigningAlgorithm = 'RS256' | 'ES256' | 'ES384' | 'ES512';

export interface VerifyingKey {
  key: KeyObject;
  /** The algorithm tokens signed by this key carry (RS256 for RSA; by curve for ECDSA). */
  alg: SigningAlgorithm;
  kid: string;
}

export interface SigningKey extends VerifyingKey {
  privateKey: KeyObject;
}

/** Upstream's key id: the unpadded base64url SHA-256 of the public key's DER (SubjectPublicKeyInfo). */
export function keyId(publicKey: KeyObject): string {
  const der = publicKey.export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(der).digest('base64url');
}

const CURVE_ALGORITHMS: Record<string, SigningAlgorithm> = {
  prime256v1: 'ES256',
  secp384r1: 'ES384',
  secp521r1: 'ES512',
};

/** The algorithm of an RSA or ECDSA key; other keys (and other curves) are refused, as upstream. */
export function algorithmOf(key: KeyObject): SigningAlgorithm {
  if (key.asymmetricKeyType === 'rsa') return 'RS256';
  if (key.asymmetricKeyType === 'ec') {
    const alg = CURVE_ALGORITHMS[key.asymmetricKeyDetails?.namedCurve ?? ''];
    if (alg === undefined) throw new Error('unknown private key curve, must be 256, 384, or 521');
    return alg;
  }
  throw new Error(`unsupported key type ${key.asymmetricKeyType ?? 'unknown'}, must be RSA or ECDSA`);
}

/** The JWS algorithms a verifying key accepts: any RSA scheme for RSA keys, the curve's for ECDSA. */
export function acceptedAlgorithms(key: VerifyingKey): string[] {
  return key.alg === 'RS256' ? ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512'] : [key.alg];
}

function verifying(key: KeyObject): VerifyingKey {
  return { key, alg: algorithmOf(key), kid: keyId(key) };
}

export function signingKeyOf(privateKey: KeyObject): SigningKey {
  const key = createPublicKey(privateKey);
  return { privateKey, ...verifying(key) };
}

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----[\s\S]*?-----END \1-----/g;

function isRsaOrEc(key: KeyObject): boolean {
  return key.asymmetricKeyType === 'rsa' || key.asymmetricKeyType === 'ec';
}

/** The public key of one PEM block, or undefined for blocks that hold none (EC PARAMETERS...). */
function publicKeyOfBlock(type: string, block: string): KeyObject | undefined {
  try {
    if (type === 'CERTIFICATE') return new X509Certificate(block).publicKey;
    if (type.endsWith('PRIVATE KEY')) return createPublicKey(createPrivateKey(block));
    if (type.endsWith('PUBLIC KEY')) return createPublicKey(block);
  } catch {
    // Upstream's reader tolerates blocks it cannot read and fails only when no key was found.
  }
  return undefined;
}

/** Every RSA or ECDSA public key in a PEM text (public keys, private keys, certificates). */
export function parsePublicKeysPem(pem: string): VerifyingKey[] {
  const keys: VerifyingKey[] = [];
  for (const m of pem.matchAll(PEM_BLOCK)) {
    const key = publicKeyOfBlock(m[1], m[0]);
    if (key !== undefined && isRsaOrEc(key)) keys.push(verifying(key));
  }
  if (keys.length === 0) throw new Error('data does not contain any valid RSA or ECDSA public keys');
  return keys;
}

/** The first RSA or ECDSA private key in a PEM text. */
export function parsePrivateKeyPem(pem: string): KeyObject {
  for (const m of pem.matchAll(PEM_BLOCK)) {
    if (!m[1].endsWith('PRIVATE KEY')) continue;
    try {
      const key = createPrivateKey(m[0]);
      if (isRsaOrEc(key)) return key;
    } catch {
      // Not a key of ours: keep looking, as upstream does.
    }
  }
  throw new Error('data does not contain a valid RSA or ECDSA private key');
}

export function readPublicKeysFile(path: string): VerifyingKey[] {
  try {
    return parsePublicKeysPem(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new Error(`failed to parse key file "${path}": ${(err as Error).message}`);
  }
}

export function readSigningKeyFile(path: string): SigningKey {
  try {
    return signingKeyOf(parsePrivateKeyPem(readFileSync(path, 'utf8')));
  } catch (err) {
    throw new Error(`failed to parse service-account-issuer-key-file "${path}": ${(err as Error).message}`);
  }
}

/**
 * The signing key at `path`, generated there first when the file does not exist: RSA 2048 as
 * kubeadm's `sa.key`, PKCS#1 PEM, readable by the owner alone, written whole or not at all.
 */
export function loadOrCreateSigningKey(path: string): SigningKey {
  if (!existsSync(path)) {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pem = privateKey.export({ type: 'pkcs1', format: 'pem' });
    const tmp = `${path}.${process.pid}.tmp`;
    writeFileSync(tmp, pem, { mode: 0o600 });
    renameSync(tmp, path);
  }
  return readSigningKeyFile(path);
}
