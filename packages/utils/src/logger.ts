import { type Logger, type LoggerOptions, pino } from "pino";

export type { Logger };

/** Paths whose values never reach a log line, wherever a caller puts them. */
const REDACTED_PATHS = [
  "password",
  "token",
  "apiKey",
  "authorization",
  "*.password",
  "*.token",
  "*.apiKey",
  "*.authorization",
  "headers.authorization",
  "*.headers.authorization",
  "req.headers.authorization",
  "req.headers.cookie",
];

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
 * `logger.child({ agent, contextId, taskId })`.
 */
export function createLogger(config: LoggerConfig = {}): Logger {
  const options: LoggerOptions = {
    level: config.level ?? process.env.LOG_LEVEL ?? "info",
    base: config.base ?? {},
    redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  };
  return config.destination ? pino(options, config.destination) : pino(options);
}

let rootLogger: Logger | undefined;

/** The process-wide logger, created on first use. */
export function getLogger(): Logger {
  rootLogger ??= createLogger();
  return rootLogger;
}
