/**
 * Runs an original .tflite model with TFLite's own interpreter (the WASM build shipped in
 * `@tensorflow/tfjs-tflite`) inside headless Chromium (playwright-core, the system browser), for
 * parity checks of the TFLite -> ONNX converter.
 *
 * tfjs-tflite is not a devDependency (its peer range pins tfjs-core 4.9, which clashes with the
 * project's 4.22); `ensureTfliteWeb()` unpacks the exact version with `npm pack` into
 * node_modules/.cache once. Only its standalone `tflite_web_api_client.js` + WASM are used.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';

export const TFLITE_WEB = '@tensorflow/tfjs-tflite@0.0.1-alpha.10';
const cacheDir = fileURLToPath(new URL('../../node_modules/.cache/tfjs-tflite', import.meta.url));

/** Directory holding tfjs-tflite's `wasm/` folder (fetched with `npm pack` on first use). */
export function ensureTfliteWeb(): string {
  const dir = join(cacheDir, 'package');
  if (existsSync(join(dir, 'wasm', 'tflite_web_api_client.js'))) return dir;
  mkdirSync(cacheDir, { recursive: true });
  const tgz = execFileSync('npm', ['pack', TFLITE_WEB, '--silent'], { cwd: cacheDir, encoding: 'utf8' }).trim().split('\n').pop()!;
  execFileSync('tar', ['xzf', tgz], { cwd: cacheDir });
  return dir;
}

const ORIGIN = 'http://tflite.invalid';

export function browserPath(): string {
  return process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
}

/** An interpreter output, typed as the model declares it. */
export type ReferenceOutput = Float32Array | Uint8Array | Int8Array | Int32Array | BigInt64Array;

const TYPED: Record<string, (b: ArrayBuffer) => ReferenceOutput> = {
  Float32Array: (b) => new Float32Array(b),
  Uint8Array: (b) => new Uint8Array(b),
  Int8Array: (b) => new Int8Array(b),
  Int32Array: (b) => new Int32Array(b),
  BigInt64Array: (b) => new BigInt64Array(b),
};

export class TfliteReference {
  private constructor(
    private readonly browser: Browser,
    private readonly page: Page,
  ) {}

  /** Loads `model` into a TFLite interpreter (1 thread, no XNNPACK-specific options). */
  static async open(model: Uint8Array): Promise<TfliteReference> {
    const root = ensureTfliteWeb();
    const browser = await chromium.launch({ executablePath: browserPath(), args: ['--headless', '--no-sandbox', '--disable-gpu'] });
    const page = await browser.newPage();
    await page.route(`${ORIGIN}/**`, async (route) => {
      const path = new URL(route.request().url()).pathname;
      if (path === '/') return route.fulfill({ contentType: 'text/html', body: '<!doctype html><html><body></body></html>' });
      if (path === '/model.tflite') return route.fulfill({ contentType: 'application/octet-stream', body: Buffer.from(model) });
      const file = join(root, 'wasm', path.replace(/^\/wasm\//, ''));
      if (!path.startsWith('/wasm/') || !existsSync(file)) return route.fulfill({ status: 404, body: '' });
      const type = file.endsWith('.wasm') ? 'application/wasm' : 'text/javascript';
      return route.fulfill({ contentType: type, body: readFileSync(file) });
    });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${ORIGIN}/`);
    await page.addScriptTag({ url: `${ORIGIN}/wasm/tflite_web_api_client.js` });
    try {
      await page.evaluate(async (origin) => {
        const w = globalThis as unknown as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
        w.tfweb.tflite_web_api.setWasmPath(`${origin}/wasm/`);
        const buf = await (await fetch(`${origin}/model.tflite`)).arrayBuffer();
        w.runner = await w.tfweb.TFLiteWebModelRunner.create(buf, { numThreads: 1 });
      }, ORIGIN);
    } catch (err) {
      await browser.close();
      throw new Error(`TFLite interpreter failed: ${String(err)} ${errors.join('; ')}`);
    }
    return new TfliteReference(browser, page);
  }

  /** Input/output tensor names and shapes as the interpreter reports them. */
  async signature(): Promise<{ inputs: { name: string; shape: string }[]; outputs: { name: string; shape: string }[] }> {
    return this.page.evaluate(() => {
      const w = globalThis as unknown as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
      // (no named helpers in page functions: tsx/esbuild would wrap them in an undefined __name)
      const ins = w.runner.getInputs() as { name: string; shape: string }[];
      const outs = w.runner.getOutputs() as { name: string; shape: string }[];
      return {
        inputs: ins.map((t) => ({ name: t.name, shape: String(t.shape) })),
        outputs: outs.map((t) => ({ name: t.name, shape: String(t.shape) })),
      };
    });
  }

  /** One inference: float32 input (NHWC, as the model declares) -> float32 outputs in model order. */
  async run(input: Float32Array): Promise<Float32Array[]> {
    return (await this.runTyped(input)) as Float32Array[];
  }

  /**
   * One inference with the model's own input type (Float32Array, or Uint8Array/Int8Array for a
   * quantized model); outputs come back as the interpreter's typed arrays (Float32Array,
   * Uint8Array, Int8Array, Int32Array or BigInt64Array for an int64 ARG_MAX).
   */
  async runTyped(input: Float32Array | Uint8Array | Int8Array): Promise<ReferenceOutput[]> {
    const b64 = Buffer.from(input.buffer, input.byteOffset, input.byteLength).toString('base64');
    const outs = await this.page.evaluate((data) => {
      const w = globalThis as unknown as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
      const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
      const inp = w.runner.getInputs()[0].data() as Float32Array | Uint8Array;
      if (inp.byteLength !== bytes.byteLength) throw new Error(`input has ${inp.byteLength} bytes, got ${bytes.byteLength}`);
      new Uint8Array(inp.buffer, inp.byteOffset, inp.byteLength).set(bytes);
      if (!w.runner.infer()) throw new Error('infer() failed');
      return (w.runner.getOutputs() as { data(): Float32Array }[]).map((o) => {
        const d = o.data();
        const u8 = new Uint8Array(d.buffer, d.byteOffset, d.byteLength);
        let s = '';
        for (let i = 0; i < u8.length; i += 0x8000) s += String.fromCharCode(...u8.subarray(i, i + 0x8000));
        return { type: d.constructor.name, data: btoa(s) };
      });
    }, b64);
    return outs.map(({ type, data }) => {
      const b = Buffer.from(data, 'base64');
      const buf = b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength);
      const make = TYPED[type];
      if (!make) throw new Error(`unexpected output array type ${type}`);
      return make(buf);
    });
  }

  async close(): Promise<void> {
    await this.browser.close();
  }
}
