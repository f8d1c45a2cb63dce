export type {
  ArgMatcher,
  CaseExpectations,
  EvalCase,
  MatchMode,
  Observation,
  ToolCallExpectation,
} from "./case.js";
export { type CliFakes, type CliIo, main } from "./cli.js";
export { type Configuration, type OpenTarget, openTarget } from "./configuration.js";
export {
  type CaseResult,
  type ConfigResult,
  type EvaluateOptions,
  evaluate,
  type Summary,
} from "./evaluate.js";
export { type GateResult, gate } from "./gate.js";
export { renderHtml } from "./report/html.js";
export { renderMarkdown } from "./report/markdown.js";
export { reportModel } from "./report/rows.js";
export { runOnce, type Target } from "./run/run-case.js";
export { type TraceDestination, traceDestination } from "./run/trace-destination.js";
export { startTraceCollector, type TraceCollector } from "./run/traces.js";
export { type Judge, modelJudge, type Verdict } from "./score/judge.js";
export type { RunScore } from "./score/score-run.js";
export { CAIPE_EVALS_COMMIT, caipeAgentName, caipeSource, loadCaipeSet } from "./set/caipe.js";
export { loadSetFile, readSet } from "./set/load.js";
export { EvalSetSchema } from "./set/schema.js";
export { loadSets, SHIPPED_SETS } from "./sets.js";
export {
  type CaseVendors,
  type Exchange,
  REPLAY_CREDENTIAL,
  type Recording,
  startVendorRecorder,
  type VendorRecorder,
} from "./vendors/recorder.js";
export { VENDOR_APIS } from "./vendors/vendors.js";
