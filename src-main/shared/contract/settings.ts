/** The user-editable settings (`settings:update`, the Settings form). */
import { z } from 'zod';
import type { SettingsUpdate } from '../index'; // (`../ipc` reads as the ipc layer to the import-direction lint)
import { analysisConcurrency, backendSchema, boundedInt, downloadConcurrency } from './batch';
import { HOST_MAX_CHARS, MODEL_THREADS, PORT, REMOTE_KEY_MAX_CHARS, SERVICE_URL_MAX_CHARS } from './limits';

/** The local API server as the user wants it. */
export const serverPrefsSchema = z
  .object({ enabled: z.boolean(), host: z.string().min(1).max(HOST_MAX_CHARS), port: z.number().int().min(PORT.min).max(PORT.max) })
  .strict();

/** A settings change; omitted fields stay. */
export const settingsUpdateSchema: z.ZodType<SettingsUpdate, unknown> = z
  .object({
    backend: backendSchema,
    remoteKey: z.string().min(1).max(REMOTE_KEY_MAX_CHARS).nullable(),
    redisUrl: z.string().trim().min(1).max(SERVICE_URL_MAX_CHARS).nullable(),
    downloadConcurrency,
    analysisConcurrency,
    modelThreads: boundedInt('modelThreads', MODEL_THREADS),
    server: serverPrefsSchema,
  })
  .partial()
  .strict();
