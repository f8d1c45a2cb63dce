import type { AgentDefinition } from "@switchboard/agent-runtime";
import { notesAgent as sharedNotesAgent } from "@switchboard-testing/agent-conformance";

/** The shared notes agent (see @switchboard-testing/agent-conformance), on agent-runtime's package. */
export function notesAgent(notes: string[]): AgentDefinition {
  return sharedNotesAgent(notes);
}
