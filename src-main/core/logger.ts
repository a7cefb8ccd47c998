/** Minimal structured logger; adapters decide where lines go. Never log secrets (API keys). */
export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

const write =
  (level: string) =>
  (msg: string, fields?: Record<string, unknown>): void => {
    const line = fields ? `${msg} ${JSON.stringify(fields)}` : msg;
    process.stderr.write(`[${level}] ${line}\n`);
  };

/** Writes to stderr so stdout stays clean for command output (JSON, CSV). */
export const consoleLogger: Logger = {
  debug: process.env.PICSCAN_DEBUG ? write('debug') : () => {},
  info: write('info'),
  warn: write('warn'),
  error: write('error'),
};

export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };
