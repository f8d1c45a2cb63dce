import { defineTestConfig } from "@switchboard/vitest-config";

// One rag-server process and one supervisor process (with its MongoDB) shared by the end-to-end file's tests.
export default defineTestConfig({ mongo: true, test: { testTimeout: 120_000, hookTimeout: 120_000 } });
