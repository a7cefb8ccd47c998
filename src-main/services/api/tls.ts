import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generate } from 'selfsigned';
import { AppError } from '../../core';
import type { ErrorCode } from '../../shared/errors';

/** PEM certificate and private key for the HTTPS server. */
export interface TlsMaterial {
  cert: string;
  key: string;
  /** Where they were read from (or written to). */
  certPath: string;
  keyPath: string;
  /** True when this call generated them. */
  generated: boolean;
}

function generatePem(): Promise<{ cert: string; key: string }> {
  const attrs = [{ name: 'commonName', value: 'picscan local API' }];
  const extensions = [
    { name: 'basicConstraints', cA: true },
    { name: 'keyUsage', keyCertSign: true, digitalSignature: true, keyEncipherment: true },
    { name: 'extKeyUsage', serverAuth: true },
    {
      name: 'subjectAltName',
      altNames: [
        { type: 2, value: 'localhost' },
        { type: 7, ip: '127.0.0.1' },
        { type: 7, ip: '::1' },
      ],
    },
  ];
  return new Promise((resolve, reject) =>
    generate(attrs, { days: 825, keySize: 2048, algorithm: 'sha256', extensions }, (err, pems) =>
      err ? reject(err) : resolve({ cert: pems.cert, key: pems.private }),
    ),
  );
}

/**
 * The server's certificate: the user's own (`certPath`/`keyPath`), or a self-signed one for
 * localhost, 127.0.0.1 and ::1 generated on first start into `<dataDir>/tls/` and reused after.
 * The key file is written with mode 0600. Files read are checked here (`invalid-input`), so a
 * wrong file is named before the server or any model starts.
 */
export async function loadOrCreateTls(opts: { dataDir: string; certPath?: string; keyPath?: string }): Promise<TlsMaterial> {
  if (opts.certPath || opts.keyPath) {
    if (!opts.certPath || !opts.keyPath) throw new AppError('invalid-input', '--cert and --key must be given together.');
    // Files the user named: an unreadable one is a wrong flag value, like one that is not PEM.
    return checkedPair(opts.certPath, opts.keyPath, 'invalid-input');
  }
  const dir = join(opts.dataDir, 'tls');
  const certPath = join(dir, 'server-cert.pem');
  const keyPath = join(dir, 'server-key.pem');
  if (existsSync(certPath) && existsSync(keyPath)) return checkedPair(certPath, keyPath, 'file-not-found');
  const { cert, key } = await generatePem();
  // Several servers may start at once on a new data folder: each pair is written in a folder of
  // its own and renamed into place whole, so the first one wins and the others use it (written
  // in place, two would mix one's key with the other's certificate, or serve one the file lacks).
  mkdirSync(opts.dataDir, { recursive: true, mode: 0o700 });
  const staging = mkdtempSync(join(opts.dataDir, 'tls-new-')); // mode 0700
  writeFileSync(join(staging, 'server-key.pem'), key, { mode: 0o600 });
  writeFileSync(join(staging, 'server-cert.pem'), cert);
  try {
    renameSync(staging, dir);
    return { cert, key, certPath, keyPath, generated: true };
  } catch {
    rmSync(staging, { recursive: true, force: true });
  }
  if (existsSync(certPath) && existsSync(keyPath)) return checkedPair(certPath, keyPath, 'file-not-found');
  // A folder holding half a pair (a crash while an older version wrote it): completed in place.
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileSync(keyPath, key, { mode: 0o600 });
  writeFileSync(certPath, cert);
  return { cert, key, certPath, keyPath, generated: true };
}

/**
 * Reads a certificate and its private key and checks them as the TLS server would use them: a
 * PEM certificate, an unencrypted PEM private key (the server takes no passphrase), and the key
 * of that certificate. Otherwise Node refuses them only when the server is built, with OpenSSL's
 * words ("PEM routines::no start line").
 */
function checkedPair(certPath: string, keyPath: string, unreadable: ErrorCode): TlsMaterial {
  const cert = readPem(certPath, unreadable);
  const key = readPem(keyPath, unreadable);
  let x509: X509Certificate;
  try {
    x509 = new X509Certificate(cert);
  } catch (cause) {
    throw new AppError('invalid-input', `The certificate ${certPath} is not a valid PEM certificate.`, { cause });
  }
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(key);
  } catch (cause) {
    throw new AppError('invalid-input', `The key ${keyPath} is not a valid PEM private key (unencrypted).`, { cause });
  }
  if (!x509.checkPrivateKey(privateKey))
    throw new AppError('invalid-input', `The key ${keyPath} does not belong to the certificate ${certPath}.`);
  return { cert, key, certPath, keyPath, generated: false };
}

function readPem(path: string, unreadable: ErrorCode): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (cause) {
    throw new AppError(unreadable, `Cannot read ${path}: ${(cause as Error).message}`, { cause });
  }
}
