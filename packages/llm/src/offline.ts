import type { CallbackManagerForLLMRun } from "@langchain/core/callbacks/manager";
import type { BaseLanguageModelInput } from "@langchain/core/language_models/base";
import {
  BaseChatModel,
  type BaseChatModelCallOptions,
  type BaseChatModelParams,
  type BindToolsInput,
} from "@langchain/core/language_models/chat_models";
import {
  AIMessage,
  AIMessageChunk,
  type BaseMessage,
  isAIMessage,
  isHumanMessage,
  isToolMessage,
  type ToolMessage,
} from "@langchain/core/messages";
import type { ToolCall } from "@langchain/core/messages/tool";
import {
  type ChatGenerationChunk,
  type ChatResult,
  ChatGenerationChunk as GenerationChunk,
} from "@langchain/core/outputs";
import type { Runnable } from "@langchain/core/runnables";
import { LLM_PROVIDERS } from "./env.js";
import { parseArguments, parseCommand } from "./offline-command.js";
import { argumentLines, describeTools, example, type OfflineTool, toolList, usage } from "./offline-tools.js";

export const OFFLINE_LABEL = "[offline mode]";

export interface OfflineChatModelCallOptions extends BaseChatModelCallOptions {
  /** Set by {@link OfflineChatModel.bindTools}. */
  tools?: BindToolsInput[];
}

/** What the offline model answers: text, or one tool call. */
export type OfflineReply = { content: string; toolCall?: undefined } | { content: ""; toolCall: ToolCall };

export function helpText(tools: readonly OfflineTool[]): string {
  const lines = [
    `${OFFLINE_LABEL} No LLM is configured, so this agent cannot understand free text.`,
    `Set LLM_PROVIDER (${LLM_PROVIDERS.join(", ")}) and that provider's settings to talk to it in plain language.`,
    "",
  ];
  const first = tools[0];
  if (!first) {
    lines.push("This agent has no tools to call.");
    return lines.join("\n");
  }
  lines.push(
    "Meanwhile you can call its tools yourself: type /<tool> followed by key=value arguments (quote values with spaces) or a JSON object.",
    "",
    "Tools:",
    toolList(tools),
    "",
    "Example:",
    `  ${example(first)}`,
  );
  return lines.join("\n");
}

// The tool results that end the conversation, each named by its tool (looked up through the call id if unnamed).
function trailingToolResults(messages: BaseMessage[]): { name: string; status?: string; text: string }[] {
  const results: ToolMessage[] = [];
  let index = messages.length - 1;
  for (; index >= 0; index--) {
    const message = messages[index];
    if (!message || !isToolMessage(message)) break;
    results.unshift(message);
  }
  const caller = messages[index];
  const calls = caller && isAIMessage(caller) ? (caller.tool_calls ?? []) : [];
  return results.map((result) => ({
    name: result.name ?? calls.find((call) => call.id === result.tool_call_id)?.name ?? "the tool",
    status: result.status,
    text: result.text,
  }));
}

/** Decides the reply to a conversation. Pure: the same messages and tools always give the same reply. */
export async function offlineReply(
  messages: BaseMessage[],
  tools: readonly OfflineTool[],
): Promise<OfflineReply> {
  const last = messages.at(-1);
  if (last && isToolMessage(last)) {
    const content = trailingToolResults(messages)
      .map(
        ({ name, status, text }) =>
          `${OFFLINE_LABEL} ${name} ${status === "error" ? "failed" : "returned"}:\n${text}`,
      )
      .join("\n\n");
    return { content };
  }
  const command = last && isHumanMessage(last) ? parseCommand(last.text) : undefined;
  if (!command || command.name === "help") return { content: helpText(tools) };

  const tool = tools.find((candidate) => candidate.name === command.name);
  if (!tool) {
    const available =
      tools.length > 0 ? `Available tools:\n${toolList(tools)}` : "This agent has no tools to call.";
    return { content: `${OFFLINE_LABEL} There is no tool named "${command.name}". ${available}` };
  }
  const parsed = await parseArguments(command.rest, tool);
  if (!parsed.ok) {
    return {
      content: [
        `${OFFLINE_LABEL} Cannot call ${tool.name}: ${parsed.problems.join("; ")}.`,
        `Usage: ${usage(tool)}`,
        ...argumentLines(tool),
        `Example: ${example(tool)}`,
      ].join("\n"),
    };
  }
  return {
    content: "",
    // The position in the thread keeps ids unique within a conversation and the reply deterministic.
    toolCall: {
      id: `offline_call_${messages.length}`,
      name: tool.name,
      args: parsed.args,
      type: "tool_call",
    },
  };
}

/**
 * A chat model for running without an LLM (`LLM_PROVIDER` unset or `offline`). It never pretends to
 * understand text: `/tool key=value` or `/tool {"json":…}` becomes a call to that bound tool, a tool result
 * is echoed back verbatim under an `[offline mode] <tool> returned:` label, and anything else gets a help
 * text listing the tools. Deterministic, no network.
 */
export class OfflineChatModel extends BaseChatModel<OfflineChatModelCallOptions> {
  static override lc_name(): string {
    return "OfflineChatModel";
  }

  constructor(fields: BaseChatModelParams = {}) {
    super(fields);
  }

  _llmType(): string {
    return "offline";
  }

  override bindTools(
    tools: BindToolsInput[],
    kwargs?: Partial<OfflineChatModelCallOptions>,
  ): Runnable<BaseLanguageModelInput, AIMessageChunk, OfflineChatModelCallOptions> {
    return this.withConfig({ ...kwargs, tools });
  }

  private async reply(messages: BaseMessage[], options: this["ParsedCallOptions"]): Promise<OfflineReply> {
    return offlineReply(messages, describeTools(options.tools ?? []));
  }

  async _generate(messages: BaseMessage[], options: this["ParsedCallOptions"]): Promise<ChatResult> {
    const reply = await this.reply(messages, options);
    const message = new AIMessage({
      content: reply.content,
      tool_calls: reply.toolCall ? [reply.toolCall] : [],
      response_metadata: { model_provider: "offline", model_name: "offline" },
    });
    return { generations: [{ text: reply.content, message }] };
  }

  override async *_streamResponseChunks(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
    runManager?: CallbackManagerForLLMRun,
  ): AsyncGenerator<ChatGenerationChunk> {
    const reply = await this.reply(messages, options);
    const chunk = new GenerationChunk({
      text: reply.content,
      message: new AIMessageChunk({
        content: reply.content,
        tool_call_chunks: reply.toolCall
          ? [
              {
                type: "tool_call_chunk",
                id: reply.toolCall.id,
                name: reply.toolCall.name,
                args: JSON.stringify(reply.toolCall.args),
                index: 0,
              },
            ]
          : [],
        response_metadata: { model_provider: "offline", model_name: "offline" },
      }),
    });
    yield chunk;
    await runManager?.handleLLMNewToken(reply.content, undefined, undefined, undefined, undefined, { chunk });
  }
}
