import type { Channel, Req, Res } from '../shared/ipc';
import type { AppConfig } from '../config';

/** One handler per channel: parses untrusted renderer input, then runs the use case. */
export interface HandlerEntry<C extends Channel> {
  parse: (raw: unknown) => Req<C>;
  run: (req: Req<C>) => Promise<Res<C>>;
}

export type HandlerTable = { [C in Channel]: HandlerEntry<C> };

export interface HandlerDeps {
  config: AppConfig;
}

const noInput = (): void => undefined;

/**
 * Builds the handler table for every channel of the contract. A mapped type makes a missing or
 * extra channel a compile error; the contract test checks the same at run time.
 */
export function createHandlers(deps: HandlerDeps): HandlerTable {
  return {
    'app:info': {
      parse: noInput,
      run: async () => ({ name: 'picscan', version: deps.config.version, dataDir: deps.config.dataDir, dbPath: deps.config.dbPath }),
    },
  };
}
