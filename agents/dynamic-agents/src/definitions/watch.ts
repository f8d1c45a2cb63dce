import { type FSWatcher, watch } from "node:fs";
import { basename, dirname } from "node:path";

/**
 * Calls `changed` once things settle after the file may have changed. The folder is watched, not
 * the file: editors save by renaming a new file over the old, and Kubernetes swaps a ConfigMap's
 * files by renaming a `..data` link, neither of which a watch on the old file would see. The
 * caller compares contents, so an event for another file costs one read.
 */
export function watchFile(file: string, changed: () => void, debounceMs = 150): { close(): void } {
  let timer: NodeJS.Timeout | undefined;
  const name = basename(file);
  let watcher: FSWatcher;
  try {
    watcher = watch(dirname(file), { persistent: false }, (_event, filename) => {
      // Linux names the file; ..data and friends are a ConfigMap's swap; null: the platform did not say.
      if (filename !== null && filename !== name && !filename.startsWith("..")) return;
      clearTimeout(timer);
      timer = setTimeout(changed, debounceMs);
    });
  } catch {
    // The folder does not exist: nothing to watch (the caller has said the file is missing).
    return { close: () => {} };
  }
  watcher.on("error", () => {});
  return {
    close() {
      clearTimeout(timer);
      watcher.close();
    },
  };
}
