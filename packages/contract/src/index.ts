export {
  type AgentCollections,
  agentNameFromPackage,
  agentUrlVariableFor,
  collectionsFor,
  enableVariableFor,
  envPrefixFor,
  SUPERVISOR,
  serviceNameFor,
} from "./names.js";
export { CONTRACT_PORTS } from "./ports.js";
export { AGENT_READY, type AgentReady, announceReady, readyMessage } from "./ready.js";
