// Runs before every test file, in every config (setupFiles), also where one worker runs many files
// with their modules kept loaded (the unit run): so each file's scratch folders go when it ends,
// which a hook registered once by scratch.js itself would do only for the first file.
import { afterAll } from "vitest";
import { removeScratchDirs } from "./scratch.js";

afterAll(removeScratchDirs);
