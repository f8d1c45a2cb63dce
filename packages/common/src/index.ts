export {
  baseUrlSetting,
  type EnvParseOptions,
  firstSetting,
  notConfigured,
  parseEnv,
  withoutEmpty,
} from "./env.js";
export { type ErrorCategory, isSwitchboardError, SwitchboardError } from "./errors.js";
export {
  headerOf,
  headersOf,
  httpStatusOf,
  MAX_RETRY_AFTER_MS,
  type NetworkFailure,
  networkFailureOf,
  type RetryAfterOptions,
  retryAfterMs,
  retryAfterMsOf,
} from "./failure.js";
export { KEEP_ALIVE_TIMEOUT_MS, listenHttp } from "./http-server.js";
export { createLogger, getLogger, type Logger, type LoggerConfig } from "./logger.js";
export {
  maskSecrets,
  maskUrlSecrets,
  maskUserinfo,
  redactSecrets,
  SECRET_LOG_PATHS,
  SECRET_MASK,
} from "./redact.js";
export { runProcess } from "./run-process.js";
export { sleep } from "./sleep.js";
export {
  GEMINI_SCHEMA_KEYWORDS,
  type OfferedTool,
  PORTABLE_FORMATS,
  PORTABLE_SCHEMA_KEYWORDS,
  PORTABLE_TOOL_NAME,
  PROVIDER_TOOL_RULES,
  type ProviderToolRules,
  type SchemaPaths,
  type SchemaProblem,
  type ToolRulesProvider,
  toolNameAllowed,
  toolProblems,
  toolSchemaProblems,
} from "./tool-rules.js";
