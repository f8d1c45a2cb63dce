export { freePort } from "@switchboard/vitest-config/ports";
export { startGrpcFirstCards } from "./grpc-first-cards.js";
export { type NodeVariant, nodeVariants } from "./node-variants.js";
export { type AgentProcess, type StartOptions, startAgentProcess } from "./process.js";
export { cpuMs, machineCpu, processTree, rssMb } from "./process-stats.js";
export {
  answerAtOnce,
  completeTask,
  type Listening,
  listenOnLoopback,
  openTask,
  type SdkAgentOptions,
  type SdkCardOptions,
  sdkCard,
  startSdkAgent,
  textPart,
} from "./sdk-agent.js";
export { SlowSaver } from "./slow-saver.js";
export { streamTranscript } from "./transcript.js";
