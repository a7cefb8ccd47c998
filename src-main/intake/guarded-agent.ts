import { promises as dns, type LookupAddress, type LookupOptions } from 'node:dns';
import { Agent } from 'undici';
import { checkAddress, type AllowList, type BlockedRange } from './address-policy';
import type { HostLookup, IntakeOptions, ResolvedAddress } from './options';

/** Raised inside the socket's lookup when a host resolves to a blocked address; intake turns it into `blocked-address`. */
export class BlockedAddressError extends Error {
  constructor(
    readonly hostname: string,
    readonly address: string,
    readonly range: BlockedRange,
  ) {
    super(`${hostname} resolves to ${address} (${range})`);
    this.name = 'BlockedAddressError';
  }
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

const systemLookup: HostLookup = async (hostname) =>
  (await dns.lookup(hostname, { all: true, order: 'verbatim' })).map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));

/**
 * The `lookup` given to every socket the agent opens. The policy check and the connection use the
 * same resolution, so a host cannot answer one address to the check and another to the connect
 * (no DNS-rebinding gap). A host is refused if ANY of its addresses is blocked, so the outcome
 * never depends on which address the socket happens to try first.
 */
export function guardedLookup(resolve: HostLookup, policy: { block: boolean; allow: AllowList }) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    resolve(hostname).then(
      (all) => {
        const wanted: ResolvedAddress[] =
          options.family === 4 || options.family === 6 ? all.filter((a) => a.family === options.family) : all;
        if (wanted.length === 0) return callback(Object.assign(new Error(`no addresses for ${hostname}`), { code: 'ENOTFOUND' }), []);
        if (policy.block) {
          for (const a of wanted) {
            const range = checkAddress(a.address, policy.allow);
            if (range) return callback(new BlockedAddressError(hostname, a.address, range) as NodeJS.ErrnoException, []);
          }
        }
        if (options.all) return callback(null, wanted);
        const first = wanted[0] as ResolvedAddress;
        return callback(null, first.address, first.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, []),
    );
  };
}

/**
 * An undici Agent for image fetches: connect timeout, header/body timeouts bounded by the total
 * timeout, and the guarded lookup when the policy is on or a custom resolver is injected.
 */
export function createIntakeAgent(opts: IntakeOptions, allow: AllowList): Agent {
  const needsLookup = opts.blockPrivateNetworks || opts.lookup !== undefined;
  const lookup = needsLookup ? guardedLookup(opts.lookup ?? systemLookup, { block: opts.blockPrivateNetworks, allow }) : undefined;
  return new Agent({
    connect: lookup ? { timeout: opts.connectTimeoutMs, lookup } : { timeout: opts.connectTimeoutMs },
    headersTimeout: opts.totalTimeoutMs,
    bodyTimeout: opts.totalTimeoutMs,
    // One request per socket at a time; image hosts rarely benefit from pipelining.
    pipelining: 1,
  });
}
