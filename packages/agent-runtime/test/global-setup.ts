import { bundleNotesMain } from "./notes-bundle.js";

/** Vitest global set-up: the notes replica's bundle, once before any file starts a replica. */
export default async function setup(): Promise<void> {
  await bundleNotesMain();
}
