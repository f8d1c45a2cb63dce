import { defineTestConfig } from "@switchboard/vitest-config";

// The bundled fixture agent checkpoints to the test MongoDB.
export default defineTestConfig({ mongo: true });
