import { defineTestConfig } from "@switchboard/vitest-config";

export default defineTestConfig({ mongo: true, test: { globalSetup: ["./test/global-setup.ts"] } });
