import type { Tracing } from "./tracing.js";
import type { LangfuseExport } from "./tracing-settings.js";

/**
 * The OpenTelemetry SDK registers one global tracer provider per process, so tracing is process-wide
 * by nature, and this is the one place that knows it: the first agent served with tracing on starts
 * the SDK (named after it), every other agent in the process shares it, and it is shut down
 * (buffered spans exported) when the last of them closes. A process does not start it twice.
 */
class ProcessTracing {
  private started: Promise<Tracing> | undefined;
  private users = 0;

  /** The process's tracing, started if need be; the returned handle's shutdown releases this agent's use. */
  async join(serviceName: string, langfuse?: LangfuseExport): Promise<Tracing> {
    this.started ??= import("./tracing.js").then(({ startTracing }) => startTracing(serviceName, langfuse));
    const tracing = await this.started;
    this.users += 1;
    let left = false;
    return {
      shutdown: async () => {
        if (left) return;
        left = true;
        this.users -= 1;
        if (this.users === 0) await tracing.shutdown();
      },
    };
  }
}

export const processTracing = new ProcessTracing();
