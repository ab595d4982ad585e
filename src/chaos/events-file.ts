// The events file (`eventsFile`, `start --events-file`): every fault event,
// node stop and start and leader change appended as one JSON line the moment
// it happens, so a CI run that fails, hangs or is killed can still be
// explained afterwards (the in-memory ring is bounded and dies with the
// process). Synchronous appends: events are few next to requests, and a line
// must be on disk before the next thing that can go wrong.
import { closeSync, openSync, writeSync } from 'node:fs';
import type { ChaosController } from './api.js';

/** Appends the controller's events to `path` (created if absent, appended to if not); returns the function that stops and closes. */
export function recordEvents(chaos: ChaosController, path: string): () => void {
  let fd: number;
  try {
    fd = openSync(path, 'a');
  } catch (err) {
    throw new Error(`eventsFile ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  const off = chaos.onEvent((event) => void writeSync(fd, JSON.stringify(event) + '\n'));
  let open = true;
  return () => {
    if (!open) return;
    open = false;
    off();
    closeSync(fd);
  };
}
