import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { type Span, SpanStatusCode, trace } from "@opentelemetry/api";
import { Counter, Histogram } from "prom-client";

/**
 * One checkpointer's own metrics, named after the design record's `checkpoint.read.duration`,
 * `checkpoint.write.duration` and `checkpoint.errors` (their counts are the histograms' `_count`),
 * labelled by the agent whose checkpointer it is: two agents in one process report apart. They
 * belong to no registry here: whoever serves /metrics (the agent runtime) registers them.
 */
export interface CheckpointMetrics {
  readDuration: Histogram<Label>;
  writeDuration: Histogram<Label>;
  errors: Counter<Label>;
}

type Label = "agent" | "operation" | "backend";

const buckets = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];
const labelNames = ["agent", "operation", "backend"] as const;

/** A fresh set for one checkpointer (registered nowhere). */
export function checkpointMetrics(): CheckpointMetrics {
  return {
    readDuration: new Histogram({
      name: "switchboard_checkpoint_read_duration_seconds",
      help: "Checkpoint store reads (getTuple, list).",
      labelNames,
      buckets,
      registers: [],
    }),
    writeDuration: new Histogram({
      name: "switchboard_checkpoint_write_duration_seconds",
      help: "Checkpoint store writes (put, putWrites, deleteThread).",
      labelNames,
      buckets,
      registers: [],
    }),
    errors: new Counter({
      name: "switchboard_checkpoint_errors_total",
      help: "Failed checkpoint store operations.",
      labelNames,
      registers: [],
    }),
  };
}

/**
 * Asked for at each span, never kept from module load: this module (ESM) and the SDK (CommonJS) hold
 * separate copies of the API, and a tracer taken before the SDK registered would stay a no-op.
 */
function tracer() {
  return trace.getTracer("@switchboard/utils");
}

type AsyncMethod = "getTuple" | "put" | "putWrites" | "deleteThread";
const WRITES = new Set<string>(["put", "putWrites", "deleteThread"]);

/**
 * Times every store call of a saver in place (the instance and its class stay the same), and traces
 * it as a `checkpoint <operation>` span when tracing is on (its MongoDB commands nest beneath).
 */
export function instrumentSaver<T extends BaseCheckpointSaver>(
  saver: T,
  backend: string,
  agent: string,
  metrics: CheckpointMetrics = checkpointMetrics(),
): T {
  const labels = (operation: string) => ({ agent, operation, backend });
  const failed = (span: Span, operation: string, error: unknown) => {
    metrics.errors.inc(labels(operation));
    span.setAttribute("error.type", error instanceof Error ? error.name : "Error");
    span.setStatus({ code: SpanStatusCode.ERROR });
  };
  for (const operation of ["getTuple", "put", "putWrites", "deleteThread"] as const satisfies AsyncMethod[]) {
    const original = saver[operation].bind(saver) as (...args: unknown[]) => Promise<unknown>;
    Object.assign(saver, {
      [operation]: (...args: unknown[]) =>
        tracer().startActiveSpan(
          `checkpoint ${operation}`,
          { attributes: spanAttributes(operation, backend, agent) },
          async (span) => {
            const timer = WRITES.has(operation) ? metrics.writeDuration : metrics.readDuration;
            const stop = timer.startTimer(labels(operation));
            try {
              return await original(...args);
            } catch (error) {
              failed(span, operation, error);
              throw error;
            } finally {
              stop();
              span.end();
            }
          },
        ),
    });
  }
  const list = saver.list.bind(saver) as (...args: unknown[]) => AsyncGenerator<unknown>;
  Object.assign(saver, {
    list: async function* (...args: unknown[]) {
      // Not made active: a generator's consumer runs between its steps, in its own context.
      const span = tracer().startSpan("checkpoint list", {
        attributes: spanAttributes("list", backend, agent),
      });
      const stop = metrics.readDuration.startTimer(labels("list"));
      try {
        yield* list(...args);
      } catch (error) {
        failed(span, "list", error);
        throw error;
      } finally {
        stop();
        span.end();
      }
    },
  });
  return saver;
}

/** The agent named as on its turn span: a host's agents share one process and one service name. */
function spanAttributes(operation: string, backend: string, agent: string) {
  return {
    "switchboard.checkpoint.operation": operation,
    "switchboard.checkpoint.backend": backend,
    "gen_ai.agent.name": agent,
  };
}
