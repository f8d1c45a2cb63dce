import { ToolMessage } from "@langchain/core/messages";
import type { StructuredToolInterface } from "@langchain/core/tools";
import { interrupt } from "@langchain/langgraph";
import { createMiddleware } from "langchain";
import { z } from "zod";
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
 * A routing tool's call (`AgentTool.routes`, e.g. OpenAPI's `call_operation`) passes all of this as
 * the call it stands for: the policy, the question, the audit trail and the run see the tool it
 * names, with that tool's arguments (routeOf says which routes are refused); a tool the model is not
 * offered (`offered: false`) runs only that way.
 * Reads asked for beside a change run at once and are not run again on resume. langchain's
 * `humanInTheLoopMiddleware` asks from a step of its own after every model call instead, which
 * writes a checkpoint for nothing on each call that asks for no change.
 */
export function guardCallsMiddleware(tools: AgentTool[], options: Access) {
  const byName = new Map(tools.map((tool) => [tool.tool.name, tool]));
  const routers = tools.filter((tool) => tool.routes && tool.offered !== false).map(({ tool }) => tool.name);
  return createMiddleware({
    name: "SwitchboardGuardCalls",
    wrapToolCall: async (request, handler) => {
      const { id } = request.toolCall;
      // The model's own call; every answer to it names it, whatever tool it ran as.
      const called = request.toolCall.name;
      const answer = (content: string) =>
        new ToolMessage({ content, tool_call_id: id ?? "", name: called, status: "error" });
      // A routing tool's call is decided, asked about, audited and run below as the call it stands
      // for: the tool it names, with that tool's arguments.
      const route = routeOf(byName, request.toolCall, routers);
      if ("refused" in route) return answer(route.refused);
      const { name, args, routed } = route;
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
        if (!routed) return handler(bound ? { ...next, tool: bound } : next);
        // A routed call runs the named tool (which the model may not be offered) on its arguments.
        const result = await handler({
          ...next,
          toolCall: { ...next.toolCall, name, args },
          tool: bound ?? tool?.tool,
        });
        if (ToolMessage.isInstance(result)) result.name = called;
        return result;
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

/** What the model is offered: every tool but those that run only through a routing tool. */
export function offeredTools(tools: AgentTool[]): StructuredToolInterface[] {
  return tools.filter((tool) => tool.offered !== false).map(({ tool }) => tool);
}

/** The call a tool call is decided and run as: itself, or the one a routing tool stands for. */
type Route = { name: string; args: Record<string, unknown>; routed: boolean } | { refused: string };

/**
 * What a call is run as. A tool not offered to the model is refused by its own name (it runs only
 * through a routing tool). A routing tool's call becomes the call it names: a tool of this agent,
 * neither itself nor another routing tool (so no route leads on, or round), with arguments that
 * tool's schema takes; anything else is refused, with why, before any policy, question or run.
 */
function routeOf(
  byName: ReadonlyMap<string, AgentTool>,
  call: { name: string; args: Record<string, unknown> },
  routers: string[],
): Route {
  const caller = byName.get(call.name);
  if (caller?.offered === false) {
    const via = routers.length > 0 ? `: call it through ${routers.join(" or ")}` : "";
    return { refused: `${call.name} is not a tool you can call by its name${via}. Nothing was run.` };
  }
  if (!caller?.routes) return { name: call.name, args: call.args, routed: false };
  let route: ReturnType<NonNullable<AgentTool["routes"]>>;
  try {
    route = caller.routes(call.args);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { refused: `${reason.replace(/\.?$/, ".")} Nothing was run.` };
  }
  if (!route) return { refused: `${call.name} named no tool to call. Nothing was run.` };
  const target = byName.get(route.tool);
  if (!target)
    return { refused: `${call.name}: ${route.tool} is not a tool of this agent. Nothing was run.` };
  if (target === caller || target.routes)
    return {
      refused: `${call.name} cannot call ${route.tool}: a routing tool calls only tools that route nowhere themselves. Nothing was run.`,
    };
  const problem = argumentsProblem(target, route.args);
  if (problem)
    return {
      refused: `${route.tool} does not take these arguments (${problem}): call ${call.name} again with arguments its schema takes. Nothing was run.`,
    };
  return { name: route.tool, args: route.args, routed: true };
}

/**
 * Why a tool's schema refuses arguments (undefined: it takes them). Only a zod schema is read here
 * (every `defineTool` tool); a JSON Schema tool (MCP) checks its arguments itself when it runs.
 */
function argumentsProblem(tool: AgentTool, args: Record<string, unknown>): string | undefined {
  const schema = tool.tool.schema as {
    safeParse?: (value: unknown) => { success: boolean; error?: unknown };
  };
  if (typeof schema.safeParse !== "function") return undefined;
  const parsed = schema.safeParse(args);
  if (parsed.success) return undefined;
  if (parsed.error instanceof z.ZodError) return z.prettifyError(parsed.error).replace(/\n/g, "; ");
  return parsed.error instanceof Error ? parsed.error.message : "arguments its schema refuses";
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
