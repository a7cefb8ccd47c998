// Composition root of the desktop app: config → backend process → window → IPC. No logic lives here.
import { app, BrowserWindow, protocol, session, utilityProcess } from 'electron';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from './config';
import { connectBackend, desktopInvoker, type FromBackend } from './ipc';
import { safeStorageVault } from './ipc/key-vault';
import { askSavePath, registerInvoker, sendEvent } from './ipc/register';
import { createMainWindow } from './windows';

const here = fileURLToPath(new URL('.', import.meta.url));
const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob: picscan-thumb:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

// Thumbnails come from the backend process through a read-only app protocol: picscan-thumb://item/<id>.
protocol.registerSchemesAsPrivileged([{ scheme: 'picscan-thumb', privileges: { standard: true, secure: true, supportFetchAPI: false } }]);

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  const config = loadConfig();
  app.setPath('userData', config.dataDir);

  app.on('second-instance', () => {
    const [win] = BrowserWindow.getAllWindows();
    if (win) {
      if (win.isMinimized()) win.restore();
      win.focus();
    }
  });

  void app.whenReady().then(() => {
    // No camera, microphone, notifications…: the UI needs none of them.
    session.defaultSession.setPermissionRequestHandler((_contents, _permission, allow) => allow(false));
    // Strict CSP for everything the renderer loads (dev server included).
    session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
      callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CSP] } });
    });

    // Fetching, inference and SQLite run in a utility process, so the window never waits on them.
    const child = utilityProcess.fork(join(here, 'backend-process.js'), [], {
      serviceName: 'picscan backend',
      env: { ...process.env, PICSCAN_DATA_DIR: config.dataDir },
    });
    const backend = connectBackend({
      postMessage: (m) => child.postMessage(m),
      onMessage: (l) => child.on('message', (m: FromBackend) => l(m)),
    });
    child.on('exit', (code) => backend.fail(`The picscan backend stopped (exit code ${code}); restart the app.`));
    backend.onEvent((name, payload) => {
      for (const win of BrowserWindow.getAllWindows()) sendEvent(win.webContents, name, payload);
    });

    protocol.handle('picscan-thumb', async (request) => {
      const itemId = Number(new URL(request.url).pathname.replace(/^\//, ''));
      const result = Number.isInteger(itemId) && itemId > 0 ? await backend.thumbnail(itemId) : null;
      const thumb = result?.ok ? (result.value as { bytes: Uint8Array; contentType: string } | null) : null;
      if (!thumb) return new Response('no thumbnail', { status: 404 });
      return new Response(Buffer.from(thumb.bytes), { headers: { 'content-type': thumb.contentType } });
    });

    // The remote API key lives encrypted with the OS keychain; the backend holds it in memory only.
    const keys = safeStorageVault(join(config.dataDir, 'remote-api-key.enc'));
    registerInvoker(desktopInvoker({ backend, askSavePath, keys }));

    createMainWindow(process.env.ELECTRON_RENDERER_URL);
    app.on('before-quit', () => child.kill());
  });

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
}
