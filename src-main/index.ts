// Composition root of the desktop app: config → services → window → IPC. No logic lives here.
import { app, BrowserWindow, session } from 'electron';
import { loadConfig } from './config';
import { consoleLogger } from './core';
import { createHandlers } from './ipc';
import { registerHandlers } from './ipc/register';
import { createMainWindow } from './windows';

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
    // Strict CSP for everything the renderer loads (dev server included).
    session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
      callback({
        responseHeaders: {
          ...details.responseHeaders,
          'Content-Security-Policy': [
            "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
          ],
        },
      });
    });
    registerHandlers(createHandlers({ config }), consoleLogger);
    createMainWindow(process.env.ELECTRON_RENDERER_URL);
  });

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
}
