import type { Observation } from "../case.js";
import type { EvalSpan } from "./traces.js";

const OPERATION = "gen_ai.operation.name";
const AGENT = "gen_ai.agent.name";
/** The supervisor's routing tool: scored as routing, not as a tool call. */
export const ROUTING_TOOL = "call_agent";

/** A served turn (agent-runtime's turn span) rather than a hop's client span. */
const isTurn = (span: EvalSpan) => span.attributes[OPERATION] === "invoke_agent" && span.kind !== 3;
const isHop = (span: EvalSpan) => span.attributes[OPERATION] === "invoke_agent" && span.kind === 3;

/**
 * Whether a trace is whole: the target's turn is in, and each hop the trace shows has the turn of
 * the agent it asked (spans arrive per process, each on its own export schedule).
 */
export function traceComplete(spans: EvalSpan[], target: string): boolean {
  const turns = spans
    .filter(isTurn)
    .map((span) => String(span.attributes["switchboard.agent"] ?? span.attributes[AGENT]));
  if (!turns.includes(target)) return false;
  const needed = new Map<string, number>();
  for (const hop of spans.filter(isHop)) {
    const agent = String(hop.attributes[AGENT]);
    needed.set(agent, (needed.get(agent) ?? 0) + 1);
  }
  return [...needed].every(([agent, count]) => turns.filter((name) => name === agent).length >= count);
}

/** Routing, tool calls (with arguments when captured), model calls and tokens, from one run's trace. */
export function observeTrace(
  spans: EvalSpan[],
): Pick<Observation, "agents" | "tools" | "modelCalls" | "tokens"> {
  const ordered = [...spans].sort((a, b) => (a.startNs < b.startNs ? -1 : a.startNs > b.startNs ? 1 : 0));
  const agents = ordered.filter(isHop).map((span) => String(span.attributes[AGENT]));
  const tools = ordered
    .filter(
      (span) =>
        span.attributes[OPERATION] === "execute_tool" && span.attributes["gen_ai.tool.name"] !== ROUTING_TOOL,
    )
    .map((span) => {
      const args = parseArgs(span.attributes["gen_ai.tool.call.arguments"]);
      return {
        agent: String(span.attributes[AGENT] ?? ""),
        name: String(span.attributes["gen_ai.tool.name"]),
        ...(args ? { args } : {}),
      };
    });
  const chats = ordered.filter((span) => span.attributes[OPERATION] === "chat");
  const sum = (key: string) => chats.reduce((total, span) => total + (Number(span.attributes[key]) || 0), 0);
  return {
    agents,
    tools,
    modelCalls: chats.length,
    tokens: { input: sum("gen_ai.usage.input_tokens"), output: sum("gen_ai.usage.output_tokens") },
  };
}

function parseArgs(raw: unknown): Record<string, unknown> | undefined {
  if (typeof raw !== "string" || raw === "") return undefined;
  try {
    const value = JSON.parse(raw) as unknown;
    // LangChain hands a tool its arguments as JSON text; a single-string tool gets the bare string.
    return value && typeof value === "object" && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : { input: value };
  } catch {
    return { input: raw };
  }
}
