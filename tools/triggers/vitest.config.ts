import { defineTestConfig } from "@switchboard/vitest-config";

// A fleet (supervisor, Jira agent, web chat) and two receiver processes shared by one file's tests.
export default defineTestConfig({ mongo: true, test: { testTimeout: 120_000, hookTimeout: 120_000 } });
