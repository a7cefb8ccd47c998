/** BrowserWindow factories with the app's security settings. */
export { createMainWindow } from './main-window';
