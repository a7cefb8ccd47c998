/**
 * The session options the tools share with the product for integer graphs: exact integer kernels
 * on every x86 CPU (`EXACT_INTEGER_KERNELS`, src-main/inference/session.ts), so a parity test or
 * benchmark measures what the app runs on the machine at hand.
 */
import { EXACT_INTEGER_KERNELS } from '../../src-main/inference';

export const EXACT_INTEGER_SESSION = { extra: { session: EXACT_INTEGER_KERNELS } } as const;
