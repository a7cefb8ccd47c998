/** Runtime configuration: one validated, frozen AppConfig built once and passed down. */
export { loadConfig, appRoot, type AppConfig, type ConfigOverrides, type Settings } from './app-config';
export { defaultAppDataDir } from './app-data-dir';
