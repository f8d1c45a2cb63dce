import { defineTestConfig } from "@switchboard/vitest-config";

// One fleet (supervisor, Jira agent, fake Jira, scripted model) shared by every eval test of the file;
// the seeds' tests reach moto, which runs from the repo's Python virtualenv: built or checked once first.
export default defineTestConfig({
  test: {
    testTimeout: 120_000,
    hookTimeout: 120_000,
    globalSetup: ["@switchboard-testing/test-python/global-setup"],
  },
});
