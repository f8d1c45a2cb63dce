import { type Logger, type LoggerOptions, pino } from "pino";
import { maskUrlSecrets, SECRET_LOG_PATHS, SECRET_MASK } from "./redact.js";

export type { Logger };

export interface LoggerConfig {
  /** pino level; defaults to LOG_LEVEL or "info" ("silent" turns logging off). */
  level?: string;
  /** Fields on every line, e.g. `{ agent: "jira" }`. */
  base?: Record<string, unknown>;
  /** Where lines go; defaults to stdout. */
  destination?: NodeJS.WritableStream;
}

/**
 * The one logger: JSON lines (pino). Per-request context goes on a child:
 * `logger.child({ agent, contextId, taskId })`. Every line is written with the secrets a URL can carry
 * masked (maskUrlSecrets), whichever field or message holds the URL: a setting, an error's text.
 */
export function createLogger(config: LoggerConfig = {}): Logger {
  const options: LoggerOptions = {
    level: config.level ?? process.env.LOG_LEVEL ?? "info",
    base: config.base ?? {},
    redact: { paths: SECRET_LOG_PATHS, censor: SECRET_MASK },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    hooks: { streamWrite: maskUrlSecrets },
  };
  return config.destination ? pino(options, config.destination) : pino(options);
}

let rootLogger: Logger | undefined;

/** The process-wide logger, created on first use. */
export function getLogger(): Logger {
  rootLogger ??= createLogger();
  return rootLogger;
}
