export { type AgentProcess, type AgentProcessOptions, startAgentProcess } from "./agent-process.js";
export { type Fleet, type FleetMember, type FleetOptions, onlyAgents, startFleet } from "./fleet.js";
