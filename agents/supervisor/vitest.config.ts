import { defineTestConfig } from "@switchboard/vitest-config";

// The interop test talks to a Python a2a-sdk agent: build its virtualenv once before the files run.
export default defineTestConfig({ mongo: true, test: { globalSetup: ["@switchboard/test-python/global-setup"] } });
