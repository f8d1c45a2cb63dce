import { trace } from "@opentelemetry/api";

/**
 * Names the agent on the span of the HTTP request it is serving (the server span, when tracing is
 * on): a host's agents share one process, one server and one service name, and are told apart in
 * traces by `gen_ai.agent.name`, as their turn, model and tool spans are.
 */
export function nameAgentOnRequest(agent: string): void {
  trace.getActiveSpan()?.setAttribute("gen_ai.agent.name", agent);
}
