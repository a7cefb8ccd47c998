import { AppError } from '../../core';
import type { Backend } from '../../shared/batch';
import { remoteProcessorFactory } from '../../services/api';
import type { BatchServiceDeps } from '../../services/batches.service';

/** `--backend`, `--base-url`, `--method` and `--key` of the batch commands. */
export interface BackendFlags {
  backend?: string;
  baseUrl?: string;
  method?: string;
  key?: string;
}

/** The batch backend chosen on the command line (default: the local models). */
export function backendOf(o: BackendFlags): Backend {
  const kind = (o.backend ?? 'local').toLowerCase();
  if (kind === 'local') {
    if (o.baseUrl !== undefined || o.method !== undefined)
      throw new AppError('invalid-parameter', '--base-url and --method need --backend remote.');
    return { kind: 'local' };
  }
  if (kind !== 'remote') throw new AppError('invalid-parameter', `--backend must be local or remote, not "${o.backend}".`);
  if (!o.baseUrl) throw new AppError('invalid-parameter', '--backend remote needs --base-url (the cloud service address).');
  let url: URL;
  try {
    url = new URL(o.baseUrl);
  } catch {
    throw new AppError('invalid-parameter', `--base-url "${o.baseUrl}" is not a URL.`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new AppError('invalid-parameter', '--base-url must be an http(s) address.');
  const method = (o.method ?? 'POST').toUpperCase();
  if (method !== 'GET' && method !== 'POST') throw new AppError('invalid-parameter', `--method must be GET or POST, not "${o.method}".`);
  return { kind: 'remote', baseUrl: url.toString().replace(/\/$/, ''), method };
}

/**
 * The remote processor for batches whose backend is remote. The key is never stored with the
 * batch: it comes from `--key` or `PICSCAN_REMOTE_KEY` each time a batch starts or resumes.
 */
export function remoteProcessorFor(o: BackendFlags, env: NodeJS.ProcessEnv = process.env): BatchServiceDeps['remoteProcessor'] {
  return (backend) => remoteProcessorFactory({ key: remoteKey(o, env) })(backend);
}

/**
 * The remote API key from `--key` or PICSCAN_REMOTE_KEY; without one, `unauthorized`. `picscan
 * batch` asks before it creates the batch, so a missing key leaves no batch behind.
 */
export function remoteKey(o: Pick<BackendFlags, 'key'>, env: NodeJS.ProcessEnv = process.env): string {
  const key = o.key ?? env.PICSCAN_REMOTE_KEY;
  if (!key) throw new AppError('unauthorized', 'This batch uses the remote API: pass --key <key> or set PICSCAN_REMOTE_KEY.');
  return key;
}
