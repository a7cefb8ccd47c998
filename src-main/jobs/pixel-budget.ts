import { AppError } from '../core';

/**
 * Decoded pixels a batch run may hold at once, summed over the images decoded and waiting for or
 * in analysis: 150 megapixels ≈ 450 MB of RGB. The stages are bounded by image counts (≈ 2 ×
 * downloads + 3 × analyses images), which for phone photos of 12 MP already meant ≈ 1.5 GB at
 * peak, and for small files that decode to 49 MP each 4.6 GB. Web images (≤ 2 MP) never reach
 * the budget, and a dozen 12 MP photos still keep two analysis workers busy.
 */
export const BATCH_PIXEL_BUDGET = 150_000_000;

/**
 * A weighted semaphore over decoded pixels, granted first come first served. One image larger than
 * the whole budget is still granted when nothing else is held, so no image waits forever.
 */
export class PixelBudget {
  private held = 0;
  private peakHeld = 0;
  private readonly waiting: Array<{ pixels: number; grant: () => void }> = [];

  constructor(readonly limit: number = BATCH_PIXEL_BUDGET) {}

  /** Pixels held now and the most held at once (for tests and benchmarks). */
  get inUse(): number {
    return this.held;
  }

  get peak(): number {
    return this.peakHeld;
  }

  /** Waits until `pixels` fit, then holds them; rejects with `cancelled` when `signal` aborts first. */
  acquire(pixels: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(cancelled());
    if (this.waiting.length === 0 && this.fits(pixels)) {
      this.take(pixels);
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const entry = {
        pixels,
        grant: () => {
          signal?.removeEventListener('abort', onAbort);
          this.take(pixels);
          resolve();
        },
      };
      const onAbort = (): void => {
        const at = this.waiting.indexOf(entry);
        if (at >= 0) this.waiting.splice(at, 1);
        reject(cancelled());
        this.grantWaiting(); // the one behind may fit now
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(entry);
    });
  }

  /** Gives back pixels taken by `acquire` and grants the waiting requests that now fit, in order. */
  release(pixels: number): void {
    this.held = Math.max(0, this.held - pixels);
    this.grantWaiting();
  }

  private fits(pixels: number): boolean {
    return this.held === 0 || this.held + pixels <= this.limit;
  }

  private take(pixels: number): void {
    this.held += pixels;
    this.peakHeld = Math.max(this.peakHeld, this.held);
  }

  private grantWaiting(): void {
    while (this.waiting.length > 0 && this.fits(this.waiting[0]!.pixels)) this.waiting.shift()!.grant();
  }
}

function cancelled(): AppError {
  return new AppError('cancelled', 'The operation was cancelled.');
}
