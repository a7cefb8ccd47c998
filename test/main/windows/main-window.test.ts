import sharp from 'sharp';
import { beforeEach, describe, expect, it, vi } from 'vitest';

// The Electron binary is not installed: a stand-in `electron` module records what the window
// factory asks for, so its security settings and guards are checked under plain Node.
const rec = vi.hoisted(() => ({
  options: undefined as unknown as { webPreferences: Record<string, unknown> },
  handlers: {} as Record<string, (...args: unknown[]) => void>,
  openHandler: undefined as unknown as (d: { url: string }) => { action: string },
  openExternal: vi.fn(),
}));

vi.mock('electron', () => ({
  BrowserWindow: class {
    webContents = {
      on: (event: string, fn: (...args: unknown[]) => void) => void (rec.handlers[event] = fn),
      setWindowOpenHandler: (fn: (d: { url: string }) => { action: string }) => void (rec.openHandler = fn),
    };
    constructor(options: typeof rec.options) {
      rec.options = options;
    }
    once(): void {}
    loadURL(): Promise<void> {
      return Promise.resolve();
    }
    loadFile(): Promise<void> {
      return Promise.resolve();
    }
  },
  shell: { openExternal: rec.openExternal },
}));

const { createMainWindow } = await import('../../../src-main/windows');
const { WINDOW_ICON } = await import('../../../src-main/windows/main-window');

function navigate(event: string, url: string): boolean {
  let prevented = false;
  rec.handlers[event]!({ preventDefault: () => (prevented = true) }, url);
  return prevented;
}

describe('main window', () => {
  beforeEach(() => {
    rec.handlers = {};
    rec.openExternal.mockClear();
  });

  it('isolates and sandboxes the renderer, with no Node integration', () => {
    createMainWindow(undefined);
    expect(rec.options.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true });
    expect(String(rec.options.webPreferences.preload)).toMatch(/preload[\\/]index\.cjs$/);
  });

  it('uses the app icon from resources/ (a real 512 px PNG)', async () => {
    createMainWindow(undefined);
    expect((rec.options as unknown as { icon: string }).icon).toBe(WINDOW_ICON);
    const meta = await sharp(WINDOW_ICON).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 512, 512]);
  });

  it('refuses navigation away from the app, redirects and webviews', () => {
    createMainWindow('http://localhost:5173/');
    expect(navigate('will-navigate', 'http://localhost:5173/#/results')).toBe(false);
    expect(navigate('will-navigate', 'https://evil.example/')).toBe(true);
    expect(navigate('will-redirect', 'http://127.0.0.1:9/')).toBe(true);
    expect(navigate('will-attach-webview', 'x')).toBe(true);
  });

  it('allows only the built index.html when loaded from files', () => {
    createMainWindow(undefined);
    expect(navigate('will-navigate', 'file:///etc/passwd')).toBe(true);
  });

  it('opens https links in the OS browser and never a new window', () => {
    createMainWindow(undefined);
    expect(rec.openHandler({ url: 'https://example.com/docs' })).toEqual({ action: 'deny' });
    expect(rec.openExternal).toHaveBeenCalledWith('https://example.com/docs');
    expect(rec.openHandler({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' });
    expect(rec.openExternal).toHaveBeenCalledTimes(1);
  });
});
