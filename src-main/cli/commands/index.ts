import type { Command } from 'commander';

/** Every CLI command registers itself on the program; add one line per command file. */
export type RegisterCommand = (program: Command) => void;

export const commands: RegisterCommand[] = [];
