// Preloaded into the server by `make soak` (NODE_OPTIONS=--import, before tsx, hence plain JavaScript):
// writes the main thread's process.memoryUsage() every second to a file named after the process, for
// the heap figures /proc does not show. Written to a temporary name and renamed, so a reader never
// sees half a file; the timer is unref'd so it never keeps the server alive.
import { renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isMainThread } from 'node:worker_threads';

if (isMainThread) {
  const file = join(tmpdir(), `oe-soak-memory-${process.pid}.json`);
  setInterval(() => {
    try {
      writeFileSync(`${file}.tmp`, JSON.stringify(process.memoryUsage()));
      renameSync(`${file}.tmp`, file);
    } catch {
      // A full or read-only temp folder only costs the soak its heap column.
    }
  }, 1000).unref();
}
