export { type EnvParseOptions, firstSetting, parseEnv, withoutEmpty } from "./env.js";
export { type ErrorCategory, isSwitchboardError, SwitchboardError } from "./errors.js";
export { KEEP_ALIVE_TIMEOUT_MS, listenHttp } from "./http-server.js";
export { createLogger, getLogger, type Logger, type LoggerConfig } from "./logger.js";
export { maskSecrets, maskUserinfo, redactSecrets, SECRET_LOG_PATHS, SECRET_MASK } from "./redact.js";
