import { defineTestConfig } from "@switchboard/vitest-config";

// A whole fleet (supervisor, Jira agent, web chat) shared by one file's tests on a loaded 2-core machine.
export default defineTestConfig({ mongo: true, test: { testTimeout: 120_000, hookTimeout: 120_000 } });
