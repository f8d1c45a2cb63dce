import { ToolMessage } from "@langchain/core/messages";
import { interrupt } from "@langchain/langgraph";
import { createMiddleware } from "langchain";
import type { AgentTool } from "../tools/define-tool.js";
import type { ChangeConfirmation, Decision } from "../turn/interrupts.js";

/**
 * A pause before each call of a tool that changes something, inside that call: the turn stops on a
 * LangGraph interrupt (persisted with the call's task) and, resumed with the user's decision, runs
 * the tool or answers that it was declined. Calls that change nothing run at once, even beside one
 * that waits, and are not run again on resume. langchain's `humanInTheLoopMiddleware` asks from a
 * step of its own after every model call instead, which writes a checkpoint for nothing on each
 * call that asks for no change (a fifth of a turn's time).
 */
export function confirmChangesMiddleware(tools: AgentTool[]) {
  const confirms = new Map<string, NonNullable<AgentTool["confirm"]>>();
  for (const { tool, confirm } of tools) if (confirm) confirms.set(tool.name, confirm);
  return createMiddleware({
    name: "SwitchboardConfirmChanges",
    wrapToolCall: async (request, handler) => {
      const { name, args, id } = request.toolCall;
      const confirm = confirms.get(name);
      if (!confirm) return handler(request);
      const change = confirm(args);
      // Arguments the tool refuses anyway: it answers the model, and nobody is asked.
      if (change === undefined) return handler(request);
      const asked: ChangeConfirmation = { change };
      const decision: Decision = interrupt(asked);
      if (decision === "approve") return handler(request);
      return new ToolMessage({
        content: `The user declined: ${name} was not run and nothing was changed.`,
        tool_call_id: id ?? "",
        name,
        status: "error",
      });
    },
  });
}
