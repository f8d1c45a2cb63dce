import { defineTestConfig } from "@switchboard/vitest-config";

export default defineTestConfig();
