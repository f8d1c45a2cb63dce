export { type AgentProcess, type AgentProcessOptions, startAgentProcess } from "./agent-process.js";
export {
  appConfigFile,
  DEFAULT_APP_CONFIG,
  type Fleet,
  type FleetMember,
  type FleetOptions,
  onlyAgents,
  startFleet,
} from "./fleet.js";
