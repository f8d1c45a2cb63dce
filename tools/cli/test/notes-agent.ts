import type { AgentDefinition } from "@switchboard/agent-runtime/definition";
import { currentTurn } from "@switchboard/agent-runtime/turn-context";
import { notesAgent as sharedNotesAgent } from "@switchboard-testing/agent-conformance/notes-agent";

/** The shared notes agent (see @switchboard-testing/agent-conformance), on agent-runtime's package. */
export function notesAgent(notes: string[]): AgentDefinition {
  return sharedNotesAgent(notes, { currentTurn });
}
