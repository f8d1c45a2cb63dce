export { AGENT_READY, type AgentReady, announceReady, readyMessage } from "./ready.js";
