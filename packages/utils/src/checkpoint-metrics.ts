import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { Counter, Histogram } from "prom-client";

/**
 * The checkpoint store's own metrics. They belong to no registry here: whoever serves /metrics (the
 * agent runtime) registers them on its registry.
 */
export const checkpointDuration = new Histogram({
  name: "switchboard_checkpoint_operation_duration_seconds",
  help: "Checkpoint store reads (getTuple, list) and writes (put, putWrites).",
  labelNames: ["operation", "backend"] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
  registers: [],
});

export const checkpointErrors = new Counter({
  name: "switchboard_checkpoint_errors_total",
  help: "Failed checkpoint store operations.",
  labelNames: ["operation", "backend"] as const,
  registers: [],
});

type AsyncMethod = "getTuple" | "put" | "putWrites" | "deleteThread";

/** Times every store call of a saver in place (the instance and its class stay the same). */
export function instrumentSaver<T extends BaseCheckpointSaver>(saver: T, backend: string): T {
  for (const operation of ["getTuple", "put", "putWrites", "deleteThread"] as const satisfies AsyncMethod[]) {
    const original = saver[operation].bind(saver) as (...args: unknown[]) => Promise<unknown>;
    Object.assign(saver, {
      [operation]: async (...args: unknown[]) => {
        const stop = checkpointDuration.startTimer({ operation, backend });
        try {
          return await original(...args);
        } catch (error) {
          checkpointErrors.inc({ operation, backend });
          throw error;
        } finally {
          stop();
        }
      },
    });
  }
  const list = saver.list.bind(saver) as (...args: unknown[]) => AsyncGenerator<unknown>;
  Object.assign(saver, {
    list: async function* (...args: unknown[]) {
      const stop = checkpointDuration.startTimer({ operation: "list", backend });
      try {
        yield* list(...args);
      } catch (error) {
        checkpointErrors.inc({ operation: "list", backend });
        throw error;
      } finally {
        stop();
      }
    },
  });
  return saver;
}
