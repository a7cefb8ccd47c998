import { BrowserWindow, shell } from 'electron';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { appRoot } from '../config';

const here = fileURLToPath(new URL('.', import.meta.url));
/** The window and taskbar icon on Linux and Windows (macOS takes the bundle's icon.icns). */
export const WINDOW_ICON = join(appRoot, 'resources', 'icon.png');

/**
 * Creates the main window with the renderer locked down: context isolation, sandbox, no Node
 * integration, no navigation away from the app, external links opened in the OS browser.
 */
export function createMainWindow(rendererUrl: string | undefined): BrowserWindow {
  const win = new BrowserWindow({
    width: 1280,
    height: 820,
    minWidth: 900,
    minHeight: 600,
    show: false,
    title: 'picscan',
    icon: WINDOW_ICON,
    webPreferences: {
      preload: join(here, '../preload/index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: false,
    },
  });
  win.once('ready-to-show', () => win.show());

  // Only the app itself may load in the window: the dev server's origin, or the built index.html
  // (any hash route); everything else is refused, links to https:// open in the OS browser.
  const indexFile = pathToFileURL(join(here, '../renderer/index.html')).href;
  const isApp = (url: string): boolean =>
    rendererUrl ? new URL(url).origin === new URL(rendererUrl).origin : url.split('#')[0] === indexFile;
  win.webContents.on('will-navigate', (event, url) => {
    if (!isApp(url)) event.preventDefault();
  });
  win.webContents.on('will-redirect', (event, url) => {
    if (!isApp(url)) event.preventDefault();
  });
  win.webContents.on('will-attach-webview', (event) => event.preventDefault());
  win.webContents.setWindowOpenHandler(({ url }) => {
    if (url.startsWith('https://')) void shell.openExternal(url);
    return { action: 'deny' };
  });

  if (rendererUrl) void win.loadURL(rendererUrl);
  else void win.loadFile(join(here, '../renderer/index.html'));
  return win;
}
