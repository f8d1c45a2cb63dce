import { tool } from "@langchain/core/tools";
import { type AgentDefinition, changeTool, readTool } from "@switchboard/agent-runtime/definition";
import { currentTurn } from "@switchboard/agent-runtime/turn-context";
import { SwitchboardError } from "@switchboard/utils/errors";
import { z } from "zod";

/**
 * A small agent for CLI tests: notes kept in the test process, a change tool that asks first, a
 * tool that reports progress the way the supervisor relays a subagent's, and one that always fails.
 */
export function notesAgent(notes: string[]): AgentDefinition {
  return {
    name: "notes",
    title: "Notes",
    description: "Keeps short notes and knows a little Jira.",
    defaultPort: 0,
    systemPrompt: "You keep notes for the user.",
    skills: [
      { id: "notes", name: "Notes", description: "List and add notes", tags: ["notes"], examples: [] },
    ],
    tools: () => [
      readTool(
        tool(async () => JSON.stringify(notes), {
          name: "list_notes",
          description: "List all notes",
          schema: z.object({}),
        }),
      ),
      changeTool<{ text: string }>(
        tool(
          async ({ text }) => {
            notes.push(text);
            return `added "${text}"`;
          },
          { name: "add_note", description: "Add a note", schema: z.object({ text: z.string() }) },
        ),
        ({ text }) => `Add the note "${text}" to your notes?`,
      ),
      readTool(
        tool(
          async () => {
            const { report } = currentTurn();
            report({ text: "Asking the jira agent", metadata: { kind: "agent-call", agent: "jira" } });
            report({
              text: "jira: Calling search_issues",
              metadata: { kind: "agent-status", agent: "jira", tool: "search_issues" },
            });
            return "JIRA-7 is open";
          },
          { name: "ask_jira", description: "Ask the Jira agent", schema: z.object({}) },
        ),
      ),
      readTool(
        tool(
          async () => {
            throw new SwitchboardError(
              "notes.config",
              "user",
              "NOTES_TOKEN is not set: set it to read secret notes.",
            );
          },
          { name: "secret_notes", description: "Read secret notes", schema: z.object({}) },
        ),
      ),
    ],
  };
}
