import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * The OS app-data folder, identical to Electron's `app.getPath('userData')` for an app named
 * "picscan", so the CLI, the API server and the desktop app share one database.
 * Linux: $XDG_CONFIG_HOME/picscan (default ~/.config/picscan); macOS: ~/Library/Application Support/picscan;
 * Windows: %APPDATA%\picscan.
 */
export function defaultAppDataDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'picscan');
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'picscan');
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'picscan');
}
