// The dynamic-agents host's entry: serves the configured agents until SIGTERM, then drains (see README.md).
import { runProcess } from "@switchboard/agent-runtime";
import { announceReady } from "@switchboard/contract";
import { HOST_NAME } from "./definitions/rules.js";
import { startHost } from "./host/host.js";

await runProcess(HOST_NAME, "the dynamic agents host", async (logger) => {
  const host = await startHost({ logger });
  announceReady({ agent: HOST_NAME, port: host.port, url: host.publicUrl });
  return host;
});
