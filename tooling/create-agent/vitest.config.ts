import { defineTestConfig } from "@switchboard/vitest-config";

// The end-to-end test runs a generated agent's own tests and the supervisor against one MongoDB.
export default defineTestConfig({ mongo: true });
