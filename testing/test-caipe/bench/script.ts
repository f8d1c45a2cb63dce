import {
  type ChatCompletionRequest,
  callTool,
  messageText,
  type Rule,
  rules,
  type Script,
  say,
} from "@switchboard-testing/test-llm";

/** A tool result as the script's rules see it. */
type ToolResult = { content: string };

/** What each turn asks: the Jira agent directly, or the supervisor with "jira: " before it. */
export const QUESTION = "show the open issues in PLAT";
export const ROUTED_QUESTION = `jira: ${QUESTION}`;

/** Both Jira agents answer in the same words from their own tool's result: the issue keys found. */
export function answerFrom(results: ToolResult[]): string {
  const keys = [...new Set(results.flatMap((result) => result.content.match(/\b[A-Z]+-\d+\b/g) ?? []))];
  // No issue found: the tool failed; its words go in the answer, so the bench's error names why.
  if (keys.length === 0) return `No issues; the tool said: ${resultText(results).slice(0, 300)}`;
  return `Open issues in PLAT: ${keys.join(", ")}.`;
}

/** An answer both fleets give when the turn went through: the issue the fake Jira seeds first. */
export function isAnswer(text: string): boolean {
  return text.includes("Open issues in PLAT:") && text.includes("PLAT-1");
}

function resultText(results: ToolResult[]): string {
  return results.map((result) => result.content).join("\n");
}

/** The newest assistant text in a request: what CAIPE's structured-output call restates as JSON. */
function lastAssistantText(request: ChatCompletionRequest): string {
  for (const message of [...request.messages].reverse()) {
    if (message.role === "assistant" && message.content) return messageText(message.content);
  }
  return "";
}

/**
 * Which fleet a model request came from, by the tools it offers (each side's agents offer their
 * own) or CAIPE's structured-output call: counted per turn, so the table says how many model calls
 * each side's turn takes.
 */
export function sideOf(request: ChatCompletionRequest): "caipe" | "switchboard" {
  const tools = (request.tools ?? []).map((tool) => tool.function.name);
  if (tools.includes("search_issues") || tools.includes("call_agent")) return "switchboard";
  return "caipe";
}

/** CAIPE's fleet, as caipe-supervisor.int.test.ts scripts it, and its Jira agent's MCP tool `search`. */
const caipeRules: Rule[] = [
  // CAIPE's agents end a turn with a structured-output call (response_format: their ResponseFormat).
  {
    test: (request) => request.response_format !== undefined,
    reply: (request) => say(JSON.stringify({ status: "completed", message: lastAssistantText(request) })),
  },
  // Its Jira agent: mcp_jira's search tool, then the answer.
  {
    toolOffered: "search",
    lastUser: /open issues in ([A-Z]+)/,
    reply: (_r, { match }) => callTool("search", { jql: `project = ${match?.[1]}` }),
  },
  {
    toolOffered: "search",
    afterTool: "search",
    reply: (_r, { toolResults }) => say(answerFrom(toolResults)),
  },
  // Its supervisor's jira subagent (deepagents) asks the Jira agent over A2A, then hands back its answer.
  {
    toolOffered: "jira_a2a",
    lastUser: /.+/s,
    reply: (_r, { userText }) => callTool("jira_a2a", { prompt: userText }),
  },
  {
    toolOffered: "jira_a2a",
    afterTool: "jira_a2a",
    reply: (_r, { toolResults }) => say(resultText(toolResults)),
  },
  // Its supervisor: "jira: …" to the jira subagent, then its result as the answer.
  {
    toolOffered: "task",
    lastUser: /^jira: (.+)$/s,
    reply: (_r, { match }) => callTool("task", { description: match?.[1], subagent_type: "jira" }),
  },
  { toolOffered: "task", afterTool: "task", reply: (_r, { toolResults }) => say(resultText(toolResults)) },
];

/** Switchboard's fleet: its Jira agent's search_issues, its supervisor's call_agent. */
const switchboardRules: Rule[] = [
  {
    toolOffered: "search_issues",
    lastUser: /open issues in ([A-Z]+)/,
    reply: (_r, { match }) => callTool("search_issues", { jql: `project = ${match?.[1]}` }),
  },
  { afterTool: "search_issues", reply: (_r, { toolResults }) => say(answerFrom(toolResults)) },
  {
    toolOffered: "call_agent",
    lastUser: /^([\w-]+): (.+)$/s,
    reply: (_r, { match }) => callTool("call_agent", { agent: match?.[1], message: match?.[2] }),
  },
  {
    toolOffered: "call_agent",
    afterTool: "call_agent",
    reply: (_r, { toolResults }) => say(resultText(toolResults)),
  },
];

/** One script for both fleets: the same model server answers every agent of both sides. */
export const peerScript: Script = rules([...caipeRules, ...switchboardRules], say("ok"));
