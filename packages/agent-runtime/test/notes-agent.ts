import { join } from "node:path";
import { tool } from "@langchain/core/tools";
import { SwitchboardError } from "@switchboard/utils/errors";
import { createLogger, type Logger } from "@switchboard/utils/logger";
import { type AgentProcess, startAgentProcess } from "@switchboard-testing/test-agents/process";
import type { ScriptedLlm } from "@switchboard-testing/test-llm/server";
import { testMongoEnv } from "@switchboard-testing/test-mongo/inject";
import { z } from "zod";
import { type AgentDefinition, changeTool, readTool } from "../src/definition.js";
import { type RunningAgent, serveAgent } from "../src/serve.js";
import { currentTurn } from "../src/turn-context.js";

/** A tiny agent for runtime tests: notes kept in the test process, one read and one change tool. */
export function notesAgent(notes: string[]): AgentDefinition {
  return {
    name: "notes",
    title: "Notes",
    description: "Keeps short notes.",
    defaultPort: 0,
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
        ({ text }) => `Add the note "${text}" to your notes.`,
      ),
      readTool(
        tool(
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
          { name: "secret_notes", description: "Read secret notes", schema: z.object({}) },
        ),
      ),
      readTool(
        tool(async () => "x".repeat(20 * 1024 * 1024), {
          name: "dump_notes",
          description: "Returns every note ever written: a lot of text",
          schema: z.object({}),
        }),
      ),
      readTool(
        tool(
          async () => {
            const { signal, report } = currentTurn();
            report({ text: "still thinking", metadata: { kind: "progress" } });
            await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
            return "stopped";
          },
          { name: "slow_notes", description: "Takes until canceled", schema: z.object({}) },
        ),
      ),
    ],
  };
}

export interface NotesAgentOptions {
  llm: ScriptedLlm;
  /** Database in the test MongoDB; leave out to give MONGODB_URI in `env` yourself. */
  dbName?: string;
  notes?: string[];
  env?: Record<string, string>;
  logger?: Logger;
}

/** Serves the notes agent in this process on a free loopback port, with its scripted LLM. */
export function serveNotesAgent(options: NotesAgentOptions): Promise<RunningAgent> {
  return serveAgent(notesAgent(options.notes ?? []), {
    env: {
      PORT: "0",
      HOST: "127.0.0.1",
      AGENT_NAME: "notes",
      ...(options.dbName ? testMongoEnv(options.dbName) : {}),
      ...options.llm.env,
      ...options.env,
    },
    logger: options.logger ?? createLogger({ level: "silent" }),
  });
}

export interface NotesProcessOptions {
  llm: ScriptedLlm;
  /** Database in the test MongoDB that every replica started with it shares. */
  dbName: string;
  env?: Record<string, string>;
}

/** The notes agent as an OS process of its own (test/fixtures/notes-main.ts): one replica. */
export function startNotesProcess(options: NotesProcessOptions): Promise<AgentProcess> {
  return startAgentProcess(join(import.meta.dirname, ".."), {
    entry: "test/fixtures/notes-main.ts",
    nodeArgs: ["--import", "tsx"],
    env: { AGENT_NAME: "notes", ...testMongoEnv(options.dbName), ...options.llm.env, ...options.env },
  });
}
