import type { Logger } from "@switchboard/common";
import type { IdGenerator, Tracing } from "./tracing.js";
import { readTracingSettings } from "./tracing-settings.js";

export type { IdGenerator, Tracing } from "./tracing.js";

/** Whether a service beside the agents exports traces: the agents' own settings decide (tracing-settings.ts). */
export function tracingOn(env: NodeJS.ProcessEnv): boolean {
  return readTracingSettings(env, "service").enabled;
}

/**
 * Tracing for a service beside the agents (the trigger receiver), on the agents' settings (OTEL_*,
 * or CAIPE's ENABLE_TRACING with LANGFUSE_*), named `switchboard-<name>` unless OTEL_SERVICE_NAME
 * says otherwise. Undefined when off: the SDK is then never loaded.
 */
export async function startServiceTracing(
  env: NodeJS.ProcessEnv,
  name: string,
  logger: Logger,
  idGenerator?: IdGenerator,
): Promise<Tracing | undefined> {
  const settings = readTracingSettings(env, name);
  if (!settings.enabled) {
    if (settings.problem) logger.warn(settings.problem);
    return undefined;
  }
  const { startTracing } = await import("./tracing.js");
  return startTracing(settings.serviceName, settings.langfuse, idGenerator);
}
