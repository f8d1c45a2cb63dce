import { isSwitchboardError } from "./errors.js";
import { createLogger, type Logger } from "./logger.js";

/**
 * The whole life of a serving process (an agent, a host of agents, a relay or receiver beside the
 * fleet): start, drain cleanly on SIGTERM/SIGINT, and on a start-up failure print one clear line
 * naming `what` and exit non-zero.
 */
export async function runProcess(
  name: string,
  what: string,
  start: (logger: Logger) => Promise<{ drain(): Promise<void> }>,
): Promise<void> {
  const logger = createLogger({ base: { agent: name } });
  try {
    const served = await start(logger);
    const stop = async (signal: string) => {
      logger.info({ signal }, "shutting down: finishing running turns");
      await served.drain();
      process.exit(0);
    };
    process.once("SIGTERM", () => void stop("SIGTERM"));
    process.once("SIGINT", () => void stop("SIGINT"));
  } catch (error) {
    const message = isSwitchboardError(error) ? error.message : String(error);
    logger.fatal({ err: isSwitchboardError(error) ? undefined : error }, `${what} cannot start: ${message}`);
    process.exit(1);
  }
}
