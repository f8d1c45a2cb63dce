/** The parts of an OpenAI chat-completions request that scripts and assertions read. */

export interface TextPart {
  type: "text";
  text: string;
}

/** Image, audio and file parts are kept as sent; scripts only read text parts. */
export type ContentPart = TextPart | { type: string; [key: string]: unknown };

export type MessageContent = string | ContentPart[];

export interface RequestToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

export interface SystemMessage {
  role: "system" | "developer";
  content: MessageContent;
  name?: string;
}

export interface UserMessage {
  role: "user";
  content: MessageContent;
  name?: string;
}

export interface AssistantMessage {
  role: "assistant";
  content?: MessageContent | null;
  tool_calls?: RequestToolCall[];
  name?: string;
}

export interface ToolMessage {
  role: "tool";
  content: MessageContent;
  tool_call_id: string;
}

export type ChatMessage = SystemMessage | UserMessage | AssistantMessage | ToolMessage;

export interface ToolDefinition {
  type: "function";
  function: { name: string; description?: string; parameters?: Record<string, unknown>; strict?: boolean };
}

/** A parsed `POST /v1/chat/completions` body. Fields the server does not read are kept as sent. */
export interface ChatCompletionRequest {
  model: string;
  messages: ChatMessage[];
  tools?: ToolDefinition[];
  tool_choice?: unknown;
  stream?: boolean;
  stream_options?: { include_usage?: boolean } | null;
  [key: string]: unknown;
}

/** A tool call a script asks for; the server generates `id` when it is left out. */
export interface ScriptToolCall {
  name: string;
  args: Record<string, unknown>;
  id?: string;
}

/** What the assistant says next: text, or tool calls (optionally with text beside them). */
export type ScriptReply = ({ content: string } | { toolCalls: ScriptToolCall[]; content?: string }) & {
  /**
   * The provider withheld the answer: each dialect says so as its provider does (OpenAI's
   * finish_reason content_filter, Anthropic's stop_reason refusal, Gemini's finishReason SAFETY with no
   * content, Bedrock's stopReason guardrail_intervened); Ollama has no such thing and answers as usual.
   */
  filtered?: boolean;
};

/** Decides the reply to one request. Throw an `LlmHttpError` (or `{ status, message }`) to fail it. */
export type Script = (request: ChatCompletionRequest) => ScriptReply | Promise<ScriptReply>;
