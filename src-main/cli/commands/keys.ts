import type { Command } from 'commander';
import { AppError } from '../../core';
import { loadConfig } from '../../config';
import { API_TIERS, type ApiKeySummary, type ApiTier } from '../../shared/api';
import { FREE_TIER_MESSAGE, KeysService, MAX_BALANCE_TEXT, formatDollars, parseDollars } from '../../services/api';
import { idArgument, terminalText } from '../flags';
import { withBackend } from '../with-backend';

interface DbFlag {
  db?: string;
}

/** Runs `run` over the keys in `--db`: only the database opens, never a model. */
function withKeys<T>(flags: DbFlag, run: (keys: KeysService) => T): Promise<T> {
  return withBackend(loadConfig({ dbPath: flags.db }), {}, (backend) => run(new KeysService(backend.db())));
}

function parseId(text: string): number {
  const id = idArgument(text);
  if (id === undefined) throw new AppError('invalid-parameter', `"${text}" is not a key id (a positive integer; see picscan keys list).`);
  return id;
}

function parseTier(text: string): ApiTier {
  const tier = text.toLowerCase() as ApiTier;
  if (!API_TIERS.includes(tier)) throw new AppError('invalid-parameter', `"${text}" is not a tier; use basic or pro.`);
  if (tier === 'free') throw new AppError('invalid-parameter', FREE_TIER_MESSAGE);
  return tier;
}

const line = (k: ApiKeySummary): string =>
  `${String(k.id).padStart(4)}  ${k.keyPrefix}…  ${k.tier.padEnd(5)}  $${formatDollars(k.balanceMicrocents).padEnd(12)}  ${String(k.transactions).padStart(8)}  ${k.revokedAt ? 'revoked' : 'active '}  ${terminalText(k.name)}`;

const print = (json: boolean | undefined, value: unknown, text: string): void => {
  process.stdout.write(json ? `${JSON.stringify(value, null, 2)}\n` : `${text}\n`);
};

/** `picscan keys create|list|revoke|topup`: API keys and credit of the local API server. */
export function registerKeys(program: Command): void {
  const keys = program.command('keys').description('manage API keys and credit of the local API server (picscan serve)');
  keys
    .command('create')
    .description('create a key; it is printed once and stored only as a hash')
    .requiredOption('--name <name>', 'who or what the key is for')
    .requiredOption('--tier <tier>', 'basic (0.003¢/call, 100/min) or pro (0.002¢/call, 200/min)')
    .option('--credit <dollars>', `opening credit in dollars (default: the tier minimum, $15 basic, $50 pro; at most ${MAX_BALANCE_TEXT})`)
    .option('--json', 'print { id, key, tier, balance, balanceMicrocents } as JSON')
    .option('--db <file>', 'database file (default: the app-data database)')
    .action(async (o: DbFlag & { name: string; tier: string; credit?: string; json?: boolean }) => {
      const tier = parseTier(o.tier);
      const credit = o.credit === undefined ? undefined : parseDollars(o.credit);
      const created = await withKeys(o, (k) => k.create({ name: o.name, tier, creditMicrocents: credit }));
      print(
        o.json,
        created,
        `Key ${created.id} (${tier}, balance $${formatDollars(created.balanceMicrocents)}):\n${created.key}\nStore it now: it is not shown again.`,
      );
    });
  keys
    .command('list')
    .description('list keys with balances (never the keys themselves)')
    .option('--json', 'print JSON')
    .option('--db <file>', 'database file')
    .action(async (o: DbFlag & { json?: boolean }) => {
      const list = await withKeys(o, (k) => k.list());
      const header = '  id  key           tier   balance        calls     status   name';
      print(
        o.json,
        list,
        list.length === 0 ? 'No API keys yet (picscan keys create --name <n> --tier basic).' : [header, ...list.map(line)].join('\n'),
      );
    });
  keys
    .command('revoke <id>')
    .description('revoke a key; calls with it get 401 from then on')
    .option('--json', 'print JSON')
    .option('--db <file>', 'database file')
    .action(async (id: string, o: DbFlag & { json?: boolean }) => {
      const k = await withKeys(o, (s) => s.revoke(parseId(id)));
      print(o.json, k, `Key ${k.id} (${terminalText(k.name)}) revoked.`);
    });
  keys
    .command('topup <id> <dollars>')
    .description(`add credit to a key, e.g. picscan keys topup 3 25 (a balance holds at most ${MAX_BALANCE_TEXT})`)
    .option('--json', 'print JSON')
    .option('--db <file>', 'database file')
    .action(async (id: string, dollars: string, o: DbFlag & { json?: boolean }) => {
      const k = await withKeys(o, (s) => s.topUp(parseId(id), parseDollars(dollars)));
      print(o.json, k, `Key ${k.id} balance: $${formatDollars(k.balanceMicrocents)}.`);
    });
}
