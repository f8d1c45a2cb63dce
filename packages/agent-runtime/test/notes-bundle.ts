import { join } from "node:path";
import { build } from "esbuild";

/**
 * The notes replica's entry (fixtures/notes-main.ts) bundled with this package's sources, relative to
 * the package: what startNotesProcess starts. Run through `node --import tsx`, each replica loaded
 * the runtime's sources module by module through tsx's loader (some 3 s of CPU to be ready); as one
 * file, it starts as a built agent does. Its dependencies stay external, loaded from node_modules as
 * they were.
 */
export const NOTES_MAIN = ".cache/notes-main.js";

const packageDir = join(import.meta.dirname, "..");

/** Bundles fixtures/notes-main.ts into NOTES_MAIN (vitest's global set-up, once per run). */
export async function bundleNotesMain(): Promise<void> {
  await build({
    absWorkingDir: packageDir,
    entryPoints: ["test/fixtures/notes-main.ts"],
    outfile: NOTES_MAIN,
    bundle: true,
    packages: "external",
    format: "esm",
    platform: "node",
    target: "node26",
    sourcemap: "linked",
    logLevel: "warning",
  });
}
