export {
  type NotesAgentDefinition,
  type NotesCallContext,
  type NotesTool,
  notesAgent,
} from "./notes-agent.js";
export { type AgentUnderTest, agentConformance, type ConformanceOptions } from "./suite.js";
