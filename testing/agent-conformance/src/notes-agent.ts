import { type StructuredToolInterface, tool } from "@langchain/core/tools";
import { SwitchboardError } from "@switchboard/common";
import { z } from "zod";

/** The part of agent-runtime's `ToolCallContext` the notes agent's tools use. */
export interface NotesCallContext {
  signal: AbortSignal;
  report(progress: { text: string; metadata?: Record<string, unknown> }): void;
}

/**
 * An agent-runtime `AgentTool`: a change tool carries the question asked before it runs; a tool
 * that needs its call's context is made for each call (`forCall`), as `defineTool` makes them.
 */
export interface NotesTool {
  tool: StructuredToolInterface;
  forCall?: (ctx: NotesCallContext) => StructuredToolInterface;
  confirm?: (args: Record<string, unknown>) => string;
}

/** The notes agent, shaped as agent-runtime's `AgentDefinition`. */
export interface NotesAgentDefinition {
  name: string;
  title: string;
  description: string;
  systemPrompt: string;
  skills: Array<{ id: string; name: string; description: string; tags: string[]; examples: string[] }>;
  tools: (env: NodeJS.ProcessEnv) => NotesTool[];
}

const noArgs = z.object({});

/**
 * A small agent for runtime and CLI tests: notes kept in the test process; `list_notes` reads them,
 * `add_note` asks first; `secret_notes` fails naming NOTES_TOKEN when it is unset; `dump_notes` returns
 * 20 MiB; `slow_notes` reports progress and runs until canceled; `ask_jira` reports progress the way
 * the supervisor relays a subagent's.
 */
export function notesAgent(notes: string[]): NotesAgentDefinition {
  return {
    name: "notes",
    title: "Notes",
    description: "Keeps short notes and knows a little Jira.",
    systemPrompt: "You keep notes for the user.",
    skills: [
      {
        id: "notes",
        name: "Notes",
        description: "List and add notes",
        tags: ["notes"],
        examples: ["list notes"],
      },
    ],
    tools: (env) => [
      {
        tool: tool(async () => JSON.stringify(notes), {
          name: "list_notes",
          description: "List all notes",
          schema: noArgs,
        }),
      },
      {
        tool: tool(
          async ({ text }) => {
            notes.push(text);
            return `added "${text}"`;
          },
          { name: "add_note", description: "Add a note", schema: z.object({ text: z.string() }) },
        ),
        confirm: (args) => `Add the note "${String(args.text)}" to your notes?`,
      },
      {
        tool: tool(
          async () => {
            if (!env.NOTES_TOKEN) {
              throw new SwitchboardError(
                "notes.config",
                "user",
                "NOTES_TOKEN is not set: set it to read secret notes.",
              );
            }
            return "secret";
          },
          { name: "secret_notes", description: "Read secret notes", schema: noArgs },
        ),
      },
      {
        tool: tool(async () => "x".repeat(20 * 1024 * 1024), {
          name: "dump_notes",
          description: "Returns every note ever written: a lot of text",
          schema: noArgs,
        }),
      },
      withContext(
        { name: "slow_notes", description: "Takes until canceled", schema: noArgs },
        async (ctx) => {
          ctx.report({ text: "still thinking", metadata: { kind: "progress" } });
          await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve, { once: true }));
          return "stopped";
        },
      ),
      withContext({ name: "ask_jira", description: "Ask the Jira agent", schema: noArgs }, async (ctx) => {
        ctx.report({ text: "Asking the jira agent", metadata: { kind: "agent-call", agent: "jira" } });
        ctx.report({
          text: "jira: Calling search_issues",
          metadata: {
            kind: "agent-status",
            agent: "jira",
            tool: "search_issues",
            relayed: { kind: "tool-call", agent: "jira", tool: "search_issues" },
          },
        });
        return "JIRA-7 is open";
      }),
    ],
  };
}

/** A tool without arguments that runs with its call's context (outside a call: none reported, never aborted). */
function withContext(
  declared: { name: string; description: string; schema: typeof noArgs },
  run: (ctx: NotesCallContext) => Promise<string>,
): NotesTool {
  const forCall = (ctx: NotesCallContext) => tool(() => run(ctx), declared);
  return {
    tool: forCall({ signal: new AbortController().signal, report: () => undefined }),
    forCall,
  };
}
