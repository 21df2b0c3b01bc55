/**
 * A test PKI made by the tests themselves (with @peculiar/x509 on Node's
 * WebCrypto, ECDSA P-256), written to a fresh temp folder: a CA whose
 * certificate file goes to NODE_EXTRA_CA_CERTS, and server certificates for
 * 127.0.0.1, localhost and petstore.invalid that fail verification in each
 * way a user may meet: expired, self-signed, for another name, from an unknown CA.
 */
import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import * as x509 from '@peculiar/x509';

/** A PEM private key and certificate, as https.createServer takes them. */
export interface KeyAndCert {
  key: string;
  cert: string;
}

export interface TestPki {
  /** The temp folder holding every file below. */
  dir: string;
  /** PEM file of the test CA's certificate (for NODE_EXTRA_CA_CERTS). */
  caFile: string;
  /** Valid for 127.0.0.1, localhost and petstore.invalid, signed by the test CA. */
  server: KeyAndCert;
  /** The same names and CA, but its validity ended yesterday. */
  expired: KeyAndCert;
  /** The same names, signed by its own key. */
  selfSigned: KeyAndCert;
  /** Signed by the test CA, for wrong.invalid only. */
  wrongName: KeyAndCert;
  /** The same names, signed by another CA that nobody trusts. */
  unknownCa: KeyAndCert;
}

/** The names every good server certificate carries. */
export const SERVER_NAMES = { ip: '127.0.0.1', dns: ['localhost', 'petstore.invalid'] };

type CryptoKeyPair = webcrypto.CryptoKeyPair;

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
const DAY_MS = 86_400_000;
let serial = 1;

interface Issuer {
  name: string;
  keys: CryptoKeyPair;
  cert: x509.X509Certificate;
}

function newKeys(): Promise<CryptoKeyPair> {
  return webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']) as Promise<CryptoKeyPair>;
}

async function pemKey(keys: CryptoKeyPair): Promise<string> {
  const der = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey));
  return `-----BEGIN PRIVATE KEY-----\n${der
    .toString('base64')
    .replace(/(.{64})/g, '$1\n')
    .trimEnd()}\n-----END PRIVATE KEY-----\n`;
}

async function createCa(commonName: string): Promise<Issuer> {
  const keys = await newKeys();
  const name = `CN=${commonName}`;
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: (serial++).toString(16).padStart(2, '0'),
    name,
    notBefore: new Date(Date.now() - DAY_MS),
    notAfter: new Date(Date.now() + 30 * DAY_MS),
    keys,
    signingAlgorithm: ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { name, keys, cert };
}

/**
 * A server certificate for `names`, signed by `issuer` (by its own key when
 * issuer is undefined: self-signed), valid from `notBefore` to `notAfter`.
 */
async function createServerCert(
  names: { ip?: string; dns: string[] },
  issuer: Issuer | undefined,
  notBefore = new Date(Date.now() - DAY_MS),
  notAfter = new Date(Date.now() + 30 * DAY_MS),
): Promise<KeyAndCert> {
  const keys = await newKeys();
  const subject = `CN=${names.dns[0]}`;
  const altNames: x509.JsonGeneralName[] = names.dns.map((value) => ({ type: 'dns', value }));
  if (names.ip) altNames.push({ type: 'ip', value: names.ip });
  const extensions = [
    new x509.BasicConstraintsExtension(false, undefined, true),
    new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
    new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
    new x509.SubjectAlternativeNameExtension(altNames),
    await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
  ];
  const common = { serialNumber: (serial++).toString(16).padStart(2, '0'), notBefore, notAfter, signingAlgorithm: ALGORITHM, extensions };
  const cert = issuer
    ? await x509.X509CertificateGenerator.create({
        ...common,
        subject,
        issuer: issuer.name,
        publicKey: keys.publicKey,
        signingKey: issuer.keys.privateKey,
        extensions: [...extensions, await x509.AuthorityKeyIdentifierExtension.create(issuer.cert)],
      })
    : await x509.X509CertificateGenerator.createSelfSigned({ ...common, name: subject, keys });
  return { key: await pemKey(keys), cert: cert.toString('pem') };
}

/** Makes the CA and every certificate of {@link TestPki} in a new temp folder. */
export async function createTestPki(): Promise<TestPki> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'petstore-pki-'));
  const ca = await createCa('petstore test CA');
  const stranger = await createCa('unknown test CA');
  const caFile = path.join(dir, 'ca.pem');
  fs.writeFileSync(caFile, ca.cert.toString('pem'));
  const pki: TestPki = {
    dir,
    caFile,
    server: await createServerCert(SERVER_NAMES, ca),
    expired: await createServerCert(SERVER_NAMES, ca, new Date(Date.now() - 30 * DAY_MS), new Date(Date.now() - DAY_MS)),
    selfSigned: await createServerCert(SERVER_NAMES, undefined),
    wrongName: await createServerCert({ dns: ['wrong.invalid'] }, ca),
    unknownCa: await createServerCert(SERVER_NAMES, stranger),
  };
  for (const kind of ['server', 'expired', 'selfSigned', 'wrongName', 'unknownCa'] as const) {
    fs.writeFileSync(path.join(dir, `${kind}.key.pem`), pki[kind].key, { mode: 0o600 });
    fs.writeFileSync(path.join(dir, `${kind}.cert.pem`), pki[kind].cert);
  }
  return pki;
}

/**
 * Trusts the test CA of `pki` in this process, as NODE_EXTRA_CA_CERTS makes a petstore process trust it at its start:
 * for in-process runs against the test servers (tls's default CA certificates, which undici's connections use, gain the
 * CA's certificate). Returns what gives them back their certificates before the call.
 */
export function trustTestCa(pki: TestPki): () => void {
  const saved = tls.getCACertificates('default');
  tls.setDefaultCACertificates([...saved, fs.readFileSync(pki.caFile, 'utf8')]);
  return () => tls.setDefaultCACertificates(saved);
}
