import { defineTestConfig } from "@switchboard/vitest-config";

// Each file plays one attacker against real processes (agents, the supervisor, the web server, the
// Slack relay, an OpenID provider): give them room on a loaded 2-core machine.
export default defineTestConfig({ mongo: true, test: { testTimeout: 180_000 } });
