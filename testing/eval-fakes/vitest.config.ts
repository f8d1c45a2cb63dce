import { defineTestConfig } from "@switchboard/vitest-config";

// One fleet (supervisor, Jira agent, fake Jira, scripted model) shared by every eval test of the file.
export default defineTestConfig({ test: { testTimeout: 120_000, hookTimeout: 120_000 } });
