import { parseEnv } from "@switchboard/common";
import { z } from "zod";

const EvalEnv = z.object({
  /** CAIPE's evaluation setting: the supervisor of a running fleet. Unset: the evaluation starts one. */
  PLATFORM_ENGINEER_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** A user's bearer token for a fleet with AUTH_MODE=jwt: the evaluation asks as that user. */
  EVAL_AUTH_TOKEN: z.string().min(1).optional(),
  /** A link to one run's trace, `{trace_id}` replaced: Jaeger's `…/trace/{trace_id}`, Langfuse's `…/trace/{trace_id}`. */
  EVAL_TRACE_URL: z
    .string()
    .regex(/^https?:\/\/\S*\{trace_id\}/, "EVAL_TRACE_URL: an http(s) URL holding {trace_id}")
    .optional(),
  /**
   * For a running fleet: the port the evaluation receives its traces on (the fleet's
   * OTEL_EXPORTER_OTLP_ENDPOINT points there, OTEL_EXPORTER_OTLP_PROTOCOL=http/json). Unset: routing and
   * tool names are read from the turn's own status updates, without arguments, tokens or model calls.
   */
  EVAL_OTLP_PORT: z.coerce.number().int().min(1).max(65_535).optional(),
  /** The address that receiver listens on (0.0.0.0 when the fleet runs in containers). */
  EVAL_OTLP_HOST: z.string().min(1).default("127.0.0.1"),
  /** Case runs at once. */
  EVAL_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  /** Runs per case (a set's `runs` and --runs win). */
  EVAL_RUNS: z.coerce.number().int().min(1).max(50).default(3),
  /** The CI gate's margin: the candidate may pass this much less (0–1, absolute) before the run fails. */
  EVAL_MAX_DROP: z.coerce.number().min(0).max(1).default(0.05),
  CAIPE_GIT_DIR: z.string().min(1).optional(),
  CAIPE_SOURCE_DIR: z.string().min(1).optional(),
});

export type EvalSettings = z.output<typeof EvalEnv>;

export function readEvalSettings(env: NodeJS.ProcessEnv): EvalSettings {
  return parseEnv(EvalEnv, env, { code: "eval.config", what: "evaluation settings" });
}
