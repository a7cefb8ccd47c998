import type { Command } from 'commander';
import { registerKeys } from './keys';
import { registerServe } from './serve';

/** Every CLI command registers itself on the program; add one line per command file. */
export type RegisterCommand = (program: Command) => void;

export const commands: RegisterCommand[] = [registerServe, registerKeys];
