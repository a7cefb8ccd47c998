import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AppConfig } from '../config';
import type { BatchService } from '../services/batches.service';

const resumeFile = (config: AppConfig): string => join(config.dataDir, 'resume-on-start.json');

/**
 * Notes the batches this process runs now, before a shutdown pauses them, so the next start
 * resumes them. Not those another process runs on the same file: that process stops them
 * itself, and one its user paused there must stay paused. Added to what another process on the
 * same data folder noted before it (two `picscan serve`, or serve and the app, stopped one after
 * the other): each used to replace the file, and the first one's batches stayed paused.
 */
export function noteRunning(config: AppConfig, service: BatchService): void {
  const running = service.runningHere();
  if (!running.length) return;
  const noted = [...new Set([...pausedByShutdown(config), ...running])];
  // Written beside and renamed: a reader never sees half a file.
  const temp = `${resumeFile(config)}.${process.pid}.tmp`;
  writeFileSync(temp, JSON.stringify(noted));
  renameSync(temp, resumeFile(config));
}

function pausedByShutdown(config: AppConfig): number[] {
  try {
    const ids: unknown = JSON.parse(readFileSync(resumeFile(config), 'utf8'));
    return Array.isArray(ids) ? ids.filter((id): id is number => Number.isInteger(id)) : [];
  } catch {
    return [];
  }
}

/**
 * Batches that were running when the app closed (paused by the shutdown) or crashed (still
 * `running`): started again, so nothing is lost. Batches the user paused stay paused.
 */
export function resumeNoted(config: AppConfig, service: BatchService): number[] {
  const noted = new Set(pausedByShutdown(config));
  rmSync(resumeFile(config), { force: true });
  // A crashed run's batch lists as paused; `interrupted()` tells it from one the user paused.
  const crashed = service.interrupted();
  const paused = service
    .list()
    .filter((b) => b.status === 'paused' && noted.has(b.id))
    .map((b) => b.id);
  const ids = [...new Set([...paused, ...crashed])];
  for (const id of ids) service.start(id).catch(() => undefined);
  return ids;
}
