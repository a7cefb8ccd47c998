/** Core helpers with no I/O of their own: the error types and small async utilities. */
export { AppError, BugError, isCancellation, toWireError } from './errors';
export { afterPendingIo, sleep, throwIfAborted } from './async';
export { type Logger, type LoggerOptions, consoleLogger, createLogger, redact, redactText, REDACTED, silentLogger } from './logger';
