import type { Command } from 'commander';
import { startServer } from '../../app';
import { loadConfig } from '../../config';
import { AppError, consoleLogger } from '../../core';
import { isLoopbackHost } from '../../http';
import { catchStopSignals } from '../stop-signal';
import { loadOrCreateTls } from '../../services/api';

interface ServeFlags {
  host: string;
  port: string;
  http?: boolean;
  cert?: string;
  key?: string;
  allowPrivateNetworks?: boolean;
  db?: string;
}

/** A port in decimal digits (Number() would read "" as 0, "0x1F90" as 8080 and "8e3" as 8000). */
function parsePort(text: string): number {
  const port = /^\d{1,5}$/.test(text) ? Number(text) : NaN;
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new AppError('invalid-parameter', `"${text}" is not a port (0..65535; 0 picks a free one).`);
  return port;
}

async function serve(flags: ServeFlags): Promise<void> {
  const port = parsePort(flags.port);
  if (flags.http && !isLoopbackHost(flags.host)) {
    throw new AppError('invalid-parameter', `--http is allowed only on loopback (127.0.0.1, ::1, localhost); ${flags.host} needs HTTPS.`);
  }
  const stop = catchStopSignals();
  const config = loadConfig({ dbPath: flags.db });
  const tls = flags.http ? undefined : await loadOrCreateTls({ dataDir: config.dataDir, certPath: flags.cert, keyPath: flags.key });
  const server = await startServer(
    config,
    { host: flags.host, port, tls },
    { logger: consoleLogger, apiBlockPrivateNetworks: !flags.allowPrivateNetworks },
  );
  const url = server.url;
  process.stdout.write(`picscan API listening on ${url}\n`);
  if (tls) process.stderr.write(`TLS certificate: ${tls.certPath}${tls.generated ? ' (generated now; trust it or use curl -k)' : ''}\n`);
  if (flags.allowPrivateNetworks)
    process.stderr.write('Image URLs on private and loopback addresses are allowed (--allow-private-networks).\n');
  const signal = await stop.received;
  process.stderr.write(`${signal}: finishing open requests…\n`);
  // A second signal now quits at once: no `onAgain` handler, so Node's default action.
  await server.close();
}

/** `picscan serve`: the spec's HTTPS API on this machine. */
export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('serve the image analysis API (GET/POST /ai/vision/analyze, /ai/faces/detect) over HTTPS')
    .option('--host <host>', 'address to bind', '127.0.0.1')
    .option('--port <port>', 'port (0 = any free port)', '8443')
    .option('--http', 'plain HTTP instead of HTTPS (loopback only)')
    .option('--cert <file>', 'PEM certificate to use instead of the generated self-signed one')
    .option('--key <file>', 'PEM private key for --cert')
    .option('--allow-private-networks', 'accept image URLs on private/loopback addresses (LAN use, tests)')
    .option('--db <file>', 'database file (default: the app-data database)')
    .action((flags: ServeFlags) => serve(flags));
}
