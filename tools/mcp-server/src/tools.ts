import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { CallToolResult, ServerNotification, ServerRequest } from "@modelcontextprotocol/sdk/types.js";
import type { Question } from "@switchboard/a2a-client";
import { isSwitchboardError, type Logger } from "@switchboard/common";
import { z } from "zod";
import { ask } from "./ask.js";
import { type ConversationHistory, conversationText } from "./conversation.js";
import type { Supervisor } from "./supervisor.js";

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

export interface ToolDeps {
  supervisor: Supervisor;
  webUrl: string;
  logger: Logger;
  /** The user's own token for a call: the verified bearer of its HTTP request, or stdio's SWITCHBOARD_TOKEN. */
  tokenOf(extra: Extra): string | undefined;
}

/** Conversation ids as the supervisor takes them (its findBadParams): no path or query characters. */
const conversationId = z
  .string()
  .regex(/^[\w.:-]{1,200}$/, "a conversation id as ask_switchboard returned it");

/** An MCP server whose tools ask Switchboard's supervisor, as the user each call's token names. */
export function switchboardMcpServer(deps: ToolDeps): McpServer {
  const server = new McpServer(
    { name: "switchboard", title: "Switchboard", version: "0.1.0" },
    { capabilities: { logging: {} } },
  );

  server.registerTool(
    "ask_switchboard",
    {
      title: "Ask Switchboard",
      description:
        "Ask Switchboard, the platform-engineering assistant, anything its agents (Jira, GitHub, AWS, …) can answer or do. Returns the answer and a conversation_id: pass it back to continue the same conversation. A change asks for your approval first.",
      inputSchema: {
        message: z.string().min(1).describe("What to ask or ask for, in plain words"),
        conversation_id: conversationId
          .optional()
          .describe("Continue this conversation (from an earlier answer)"),
      },
      outputSchema: {
        conversation_id: z.string(),
        state: z.string(),
        answer: z.string(),
        approve_at: z.string().optional(),
      },
    },
    async ({ message, conversation_id }, extra) =>
      failuresAsResults(deps.logger, async () => {
        const answer = await ask(
          deps,
          { message, conversationId: conversation_id },
          {
            token: deps.tokenOf(extra),
            signal: extra.signal,
            progress: progressReporter(extra),
            confirm: server.server.getClientCapabilities()?.elicitation
              ? (question) => confirmByElicitation(server, extra, question)
              : undefined,
          },
        );
        return {
          content: [{ type: "text", text: `${answer.text}\n\n(conversation_id: ${answer.conversationId})` }],
          structuredContent: {
            conversation_id: answer.conversationId,
            state: answer.state,
            answer: answer.text,
            ...(answer.approveAt ? { approve_at: answer.approveAt } : {}),
          },
        };
      }),
  );

  server.registerTool(
    "list_agents",
    {
      title: "List Switchboard's agents",
      description:
        "The agents Switchboard can route your requests to (those you may reach), with what each does and whether it is up.",
      annotations: { readOnlyHint: true },
    },
    async (extra) =>
      failuresAsResults(deps.logger, async () => {
        const listed = await deps.supervisor.get<{ subagents: ListedAgent[] }>(
          "/subagents",
          deps.tokenOf(extra),
        );
        return {
          content: [{ type: "text", text: agentsText(listed.subagents) }],
          structuredContent: { agents: listed.subagents },
        };
      }),
  );

  server.registerTool(
    "read_conversation",
    {
      title: "Read a Switchboard conversation",
      description:
        "One of your own conversations with Switchboard: what was asked, what happened, the answers.",
      inputSchema: { conversation_id: conversationId },
      annotations: { readOnlyHint: true },
    },
    async ({ conversation_id }, extra) =>
      failuresAsResults(deps.logger, async () => {
        const history = await deps.supervisor.get<ConversationHistory>(
          `/conversations/${encodeURIComponent(conversation_id)}`,
          deps.tokenOf(extra),
        );
        return { content: [{ type: "text", text: conversationText(history) }] };
      }),
  );

  return server;
}

interface ListedAgent {
  name: string;
  status: string;
  description?: string;
  skills?: Array<{ name?: string }>;
  reason?: string;
}

function agentsText(agents: ListedAgent[]): string {
  if (agents.length === 0) return "No agents are available to you.";
  return agents
    .map((agent) =>
      [
        `- ${agent.name} (${agent.status})`,
        agent.description ? `: ${agent.description}` : "",
        agent.reason ? ` ${agent.reason}` : "",
      ].join(""),
    )
    .join("\n");
}

/** Progress notifications for a call whose client asked for them (a progressToken); else nothing. */
function progressReporter(extra: Extra): (text: string) => Promise<void> {
  const progressToken = extra._meta?.progressToken;
  let progress = 0;
  return async (message) => {
    if (progressToken === undefined) return;
    progress += 1;
    await extra.sendNotification({
      method: "notifications/progress",
      params: { progressToken, progress, message },
    });
  };
}

/** A change put to the user through the client's own dialog: approve, decline, or left for later (cancel). */
async function confirmByElicitation(
  server: McpServer,
  extra: Extra,
  question: Question,
): Promise<"approve" | "decline" | "cancel"> {
  const result = await server.server.elicitInput(
    {
      mode: "form",
      message: `${question.agent ? `The ${question.agent} agent` : "Switchboard"} asks to make this change:\n${question.text}`,
      requestedSchema: {
        type: "object",
        properties: {
          approve: {
            type: "boolean",
            title: "Approve this change",
            description: "Yes to make the change, no to decline it",
          },
        },
        required: ["approve"],
      },
    },
    { relatedRequestId: extra.requestId, signal: extra.signal },
  );
  if (result.action === "decline") return "decline";
  if (result.action !== "accept") return "cancel";
  return result.content?.approve === true ? "approve" : "decline";
}

/** A failure the user can act on is the tool's result (isError); anything else is logged and named only by its kind. */
async function failuresAsResults(
  logger: Logger,
  run: () => Promise<CallToolResult>,
): Promise<CallToolResult> {
  try {
    return await run();
  } catch (error) {
    if (isSwitchboardError(error)) return { isError: true, content: [{ type: "text", text: error.message }] };
    const name = (error as { code?: string }).code ?? (error as Error)?.name ?? "Error";
    logger.error({ err: error }, "an MCP tool call failed");
    return {
      isError: true,
      content: [
        { type: "text", text: `Switchboard could not answer (${name}); the MCP server's log says why.` },
      ],
    };
  }
}
