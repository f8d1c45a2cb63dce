export { type NotesAgentDefinition, type NotesRuntime, notesAgent } from "./notes-agent.js";
export { type AgentUnderTest, agentConformance, type ConformanceOptions } from "./suite.js";
