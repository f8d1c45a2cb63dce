// The dynamic-agents host's entry: serves the configured agents until SIGTERM, then drains (see README.md).
import { createLogger, isSwitchboardError } from "@switchboard/common";
import { announceReady } from "@switchboard/contract";
import { HOST_NAME, startHost } from "./host/host.js";

const logger = createLogger({ base: { agent: HOST_NAME } });
try {
  const host = await startHost({ logger });
  announceReady({ agent: HOST_NAME, port: host.port, url: host.publicUrl });
  const stop = async (signal: string) => {
    logger.info({ signal }, "shutting down: finishing running turns");
    await host.drain();
    process.exit(0);
  };
  process.once("SIGTERM", () => void stop("SIGTERM"));
  process.once("SIGINT", () => void stop("SIGINT"));
} catch (error) {
  const message = isSwitchboardError(error) ? error.message : String(error);
  logger.fatal(
    { err: isSwitchboardError(error) ? undefined : error },
    `the dynamic agents host cannot start: ${message}`,
  );
  process.exit(1);
}
