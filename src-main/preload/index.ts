import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { isChannel, isEventName, type PicscanApi } from '../shared/ipc';

// The only surface the sandboxed renderer gets: invoke on allow-listed channels, and subscribe
// to allow-listed events. Unknown names are refused here, before anything reaches the main side.
const api: PicscanApi = {
  invoke(channel, req) {
    if (!isChannel(channel)) return Promise.reject(new Error(`Unknown channel: ${String(channel)}`));
    return ipcRenderer.invoke(channel, req);
  },
  on(event, listener) {
    if (!isEventName(event)) throw new Error(`Unknown event: ${String(event)}`);
    const wrapped = (_e: IpcRendererEvent, payload: unknown): void => listener(payload as never);
    ipcRenderer.on(event, wrapped);
    return () => ipcRenderer.removeListener(event, wrapped);
  },
};

contextBridge.exposeInMainWorld('api', api);
