import type { A2ARequestHandler } from "@a2a-js/sdk/server";
import type { RuntimeMetrics } from "../telemetry/metrics.js";

const STREAMING = new Set(["sendMessageStream", "resubscribe"]);

/** Counts every A2A call by method and outcome for /metrics, whatever binding it came through. */
export function countedRequestHandler(
  handler: A2ARequestHandler,
  a2aRequests: RuntimeMetrics["a2aRequests"],
): A2ARequestHandler {
  return new Proxy(handler, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== "function" || typeof property !== "string" || property === "getAgentCard")
        return value;
      const method = property;
      if (STREAMING.has(method)) {
        return async function* (...args: unknown[]) {
          try {
            yield* value.apply(target, args);
            a2aRequests.inc({ method, outcome: "ok" });
          } catch (error) {
            a2aRequests.inc({ method, outcome: "error" });
            throw error;
          }
        };
      }
      return async (...args: unknown[]) => {
        try {
          const result = await value.apply(target, args);
          a2aRequests.inc({ method, outcome: "ok" });
          return result;
        } catch (error) {
          a2aRequests.inc({ method, outcome: "error" });
          throw error;
        }
      };
    },
  });
}
