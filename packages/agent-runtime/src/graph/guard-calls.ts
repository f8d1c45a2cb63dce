import { ToolMessage } from "@langchain/core/messages";
import { interrupt } from "@langchain/langgraph";
import { createMiddleware } from "langchain";
import type { AuditedCall } from "../audit/recorder.js";
import type { Access } from "../authz/access.js";
import { LOCAL_PRINCIPAL, type Principal } from "../authz/principal.js";
import { type CallCredential, toolCallContext } from "../context/tool-call-context.js";
import { turnOf } from "../context/turn-context.js";
import type { AgentTool } from "../tools/define-tool.js";
import { argsHash } from "../turn/args-hash.js";
import type { ChangeConfirmation, ChangeResume } from "../turn/interrupts.js";

/**
 * Every tool call passes here, in this order, inside the call itself:
 * 1. the policy decides, on the caller's own identity, whether this principal may read or change
 *    with this tool on what its arguments name, and with whose credential (the caller's linked
 *    token for the agent's vendor when they linked one, else the service's: `context.credential`);
 *    a denied call changes nothing, is never asked about, is audited, and the model reads that it
 *    was not allowed (so it can tell the user), or that they must link a token of their own first;
 * 2. a change pauses for the user's confirmation (a LangGraph interrupt persisted with the call's
 *    task), which shows the tool's sentence and every argument the call runs with, and records the
 *    asking A2A task, the principal asked and the hash of those arguments; resumed with the
 *    decision (turn/executor.ts decides who may give it), it runs only when approved for exactly the
 *    arguments it is about to run with, else answers that it did not run;
 * 3. an approved change is audited before it runs and again with how it ended, so a crash leaves
 *    the attempt on record.
 * The call then runs with its `ToolCallContext`, built here once from the turn LangGraph hands the
 * call (`runtime.context`, see context/turn-context.ts) and the credential decided: the tool's
 * `run(args, ctx)` gets it, and passes it on (VendorClient.call(ctx, …), an MCP server's session).
 * Reads asked for beside a change run at once and are not run again on resume. langchain's
 * `humanInTheLoopMiddleware` asks from a step of its own after every model call instead, which
 * writes a checkpoint for nothing on each call that asks for no change.
 */
export function guardCallsMiddleware(tools: AgentTool[], options: Access) {
  const byName = new Map(tools.map((tool) => [tool.tool.name, tool]));
  return createMiddleware({
    name: "SwitchboardGuardCalls",
    wrapToolCall: async (request, handler) => {
      const { name, args, id } = request.toolCall;
      const tool = byName.get(name);
      const turn = turnOf(request.runtime);
      const principal: Principal = turn?.principal ?? LOCAL_PRINCIPAL;
      const change = tool?.confirm?.(args);
      const resource = tool?.resource?.(args);
      const call: AuditedCall = {
        principal,
        tool: name,
        args,
        ...(resource ? { resource } : {}),
        policy: [],
        ...(turn ? { contextId: turn.contextId } : {}),
      };
      const answer = (content: string) =>
        new ToolMessage({ content, tool_call_id: id ?? "", name, status: "error" });

      let linked: CallCredential | undefined;
      try {
        linked = await options.linkedCredential(principal);
      } catch (error) {
        // A record the key no longer opens: the user links the token again; nothing runs.
        return answer(error instanceof Error ? error.message : String(error));
      }
      if (options.policies) {
        const action = tool?.confirm ? "change" : "read";
        const question = { principal, action, agent: options.agent, tool: name, resource } as const;
        const decision = options.policies.decide({ ...question, credential: linked ? "linked" : "service" });
        call.policy = decision.policies;
        if (!decision.allowed) {
          await options.audit?.denial(call);
          // Refused only the service credential: the user's own token would be let through.
          const vendor = options.linked?.vendor;
          if (!linked && vendor && options.policies.decide({ ...question, credential: "linked" }).allowed) {
            return answer(linkNeeded(principal, action, options.agent, name, vendor.title, vendor.vendor));
          }
          return answer(notAllowed(principal, action, options.agent, name, resource, decision.policies));
        }
      }
      // The tool for this call, holding its context; a tool built without one runs as it is.
      const ctx = toolCallContext(turn, principal, linked, request.runtime.signal);
      const run = async (next: typeof request) => {
        const bound = await tool?.forCall?.(ctx);
        return handler(bound ? { ...next, tool: bound } : next);
      };
      // A read, or arguments the tool refuses anyway (it answers the model; nobody is asked). A tool
      // marked `audited` (remember) is recorded as a change is, confirmed by its caller's own request.
      if (change === undefined) {
        return tool?.audited ? recorded(options, call, principal.subject, () => run(request)) : run(request);
      }

      const runArgs = tool?.runArgs?.(args) ?? args;
      const hash = argsHash(name, runArgs);
      const asked: ChangeConfirmation = {
        change,
        tool: name,
        ...(resource ? { resource } : {}),
        args: runArgs,
        argsHash: hash,
        ...(turn ? { taskId: turn.taskId } : {}),
        subject: principal.subject,
        askedAt: Date.now(),
      };
      const resumed: ChangeResume | undefined = interrupt(asked);
      if (resumed?.decision !== "approve") {
        await options.audit?.outcome(call, "declined");
        return answer(resumed?.reason ?? `The user declined: ${name} was not run and nothing was changed.`);
      }
      // Approved for other arguments than these (the stored call was altered after it was shown).
      if (resumed.argsHash !== hash) {
        await options.audit?.outcome(call, "declined");
        return answer(
          `${name} was not run and nothing was changed: its arguments are not the ones the user approved. Ask again if it is still wanted.`,
        );
      }
      // Confirmed by whoever answered: the caller, or an approver the policy let decide (turn/approval.ts).
      const approver = turn?.approver?.principal;
      return recorded(
        options,
        approver ? { ...call, requester: principal } : call,
        approver?.subject ?? principal.subject,
        () => run(request),
        call,
      );
    },
  });
}

/**
 * Runs an allowed call on record: its attempt before it runs (a crash leaves it there), then how it
 * ended. `outcomeCall` is the call the outcome line names (the attempt may add the requester).
 */
async function recorded<R>(
  options: Access,
  call: AuditedCall,
  confirmedBy: string,
  run: () => R | Promise<R>,
  outcomeCall: AuditedCall = call,
): Promise<R> {
  const attempt = await options.audit?.attempt(call, confirmedBy);
  try {
    const result = await run();
    const failed = ToolMessage.isInstance(result) && result.status === "error";
    await options.audit?.outcome(outcomeCall, failed ? "failed" : "done", {
      ...(attempt !== undefined ? { attempt } : {}),
      ...(failed ? { error: String(result.content).slice(0, 500) } : {}),
    });
    return result;
  } catch (error) {
    await options.audit?.outcome(outcomeCall, "failed", {
      ...(attempt !== undefined ? { attempt } : {}),
      error: error instanceof Error ? error.message : String(error),
    });
    throw error;
  }
}

/** What the model (and through it the user) reads when only a token of the user's own would do. */
function linkNeeded(
  principal: Principal,
  action: "read" | "change",
  agent: string,
  tool: string,
  title: string,
  vendor: string,
): string {
  const who = principal.authenticated
    ? (principal.email ?? principal.name ?? principal.subject)
    : "this caller";
  return `Not allowed with the agent's own ${title} credential: the policy lets ${who} ${action} with ${agent}'s ${tool} only with a ${title} token of their own, and they have linked none. Nothing was done. Tell the user to link their ${title} token in the web chat (Linked tokens) or with PUT /linked-tokens/${vendor} {"token": "…"}, then ask again.`;
}

/** What the model (and through it the user) reads when a call is refused: which action, on what. */
function notAllowed(
  principal: Principal,
  action: "read" | "change",
  agent: string,
  tool: string,
  resource: Record<string, string> | undefined,
  policies: string[],
): string {
  const on = resource
    ? ` on ${Object.entries(resource)
        .map(([kind, value]) => `${kind} ${value}`)
        .join(", ")}`
    : "";
  const who = principal.authenticated
    ? (principal.email ?? principal.name ?? principal.subject)
    : "this caller";
  const why =
    policies.length > 0 ? ` (forbidden by policy ${policies.join(", ")})` : " (no policy permits it)";
  return `Not allowed: ${who} may not ${action} with ${agent}'s ${tool}${on}${why}. Nothing was done. Tell the user; an administrator can change the policy.`;
}
