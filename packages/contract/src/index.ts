export {
  AGENTS_FOLDER,
  type AgentPackage,
  listAgentPackages,
  packageDirOwning,
  readAgentPackage,
} from "./agents.js";
export {
  type AgentCollections,
  agentNameFromPackage,
  agentUrlVariableFor,
  collectionsFor,
  enableVariableFor,
  envPrefixFor,
  SUPERVISOR,
  sameAgentName,
  serviceNameFor,
} from "./names.js";
export { CONTRACT_PORTS } from "./ports.js";
export { AGENT_READY, type AgentReady, announceReady, READY_CHANNEL_ENV, readyMessage } from "./ready.js";
