import { randomUUID } from "node:crypto";
import { cpSync, existsSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";

/**
 * Applies a set of file changes so that either all of them land or none do: each step is atomic
 * (a rename within its folder) and registers its undo; `rollback()` replays the undos in reverse.
 */
export class FileTransaction {
  private readonly undos: Array<() => void> = [];
  private readonly trash: string[] = [];

  /** Replaces a file's text via a sibling temp file and a rename; undo restores the old text. */
  writeFile(path: string, text: string): void {
    const previous = existsSync(path) ? readFileSync(path, "utf8") : undefined;
    const temp = this.sibling(path, "tmp");
    writeFileSync(temp, text);
    try {
      renameSync(temp, path);
    } catch (error) {
      rmSync(temp, { force: true });
      throw error;
    }
    this.undos.push(() => {
      if (previous === undefined) rmSync(path, { force: true });
      else writeFileSync(path, previous);
    });
  }

  /** Copies a staged folder next to `target`, then renames it into place (fails if target exists). */
  addDirectory(staged: string, target: string): void {
    if (existsSync(target)) throw new Error(`${target} appeared while the agent was being generated.`);
    const temp = this.sibling(target, "new");
    try {
      cpSync(staged, temp, { recursive: true });
      renameSync(temp, target);
    } catch (error) {
      rmSync(temp, { recursive: true, force: true });
      throw error;
    }
    this.undos.push(() => rmSync(target, { recursive: true, force: true }));
  }

  /** Moves a folder aside (deleted on commit, moved back on rollback). */
  removeDirectory(path: string): void {
    const aside = this.sibling(path, "removed");
    renameSync(path, aside);
    this.trash.push(aside);
    this.undos.push(() => {
      renameSync(aside, path);
      this.trash.splice(this.trash.indexOf(aside), 1);
    });
  }

  commit(): void {
    for (const path of this.trash.splice(0)) rmSync(path, { recursive: true, force: true });
    this.undos.length = 0;
  }

  /** Undoes every step taken so far; keeps going past a failing undo and reports the first. */
  rollback(): void {
    let first: unknown;
    for (const undo of this.undos.splice(0).reverse()) {
      try {
        undo();
      } catch (error) {
        first ??= error;
      }
    }
    if (first) throw first;
  }

  // Dot-named and in the same folder, so the rename is atomic and no tool takes it for a package.
  private sibling(path: string, kind: string): string {
    return join(dirname(path), `.${basename(path)}.${kind}-${randomUUID().slice(0, 8)}`);
  }
}
