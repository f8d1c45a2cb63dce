import { type StructuredToolInterface, tool } from "@langchain/core/tools";
import { z } from "zod";
import { LOCAL_PRINCIPAL } from "../authz/principal.js";
import type { ToolResource } from "../authz/request.js";
import { type ToolCallContext, toolCallContext } from "../context/tool-call-context.js";

/** A zod object schema: a tool's arguments are always named fields. */
type ArgsSchema = z.ZodObject;

/**
 * A tool the agent may call, as the runtime sees it. A tool that changes anything carries
 * `confirm`: the turn pauses (a LangGraph interrupt persisted in the checkpoint) and the A2A task
 * asks the user that question before the tool runs. MCP tools are built into this shape too.
 */
export interface AgentTool {
  /** What the model is offered (name, description, schema); run as is only when `forCall` is absent. */
  tool: StructuredToolInterface;
  /**
   * The tool for one call, with that call's context (graph/guard-calls.ts builds it once, after
   * the policy decided): what `defineTool`'s `run(args, ctx)` and MCP tools are run as.
   */
  forCall?: (ctx: ToolCallContext) => StructuredToolInterface | Promise<StructuredToolInterface>;
  /**
   * The question asked before a change runs, from the call's raw arguments; undefined when there
   * is nothing to ask (arguments the tool will refuse anyway never reach the user).
   */
  confirm?: (args: Record<string, unknown>) => string | undefined;
  /**
   * The arguments the call runs with, from its raw arguments (a schema's defaults filled): what the
   * confirmation shows whole and the approval is bound to. Absent: the raw arguments are sent as they are.
   */
  runArgs?: (args: Record<string, unknown>) => Record<string, unknown> | undefined;
  /** What a call acts on, from its raw arguments, for the policy (undefined: the tool as a whole). */
  resource?: (args: Record<string, unknown>) => ToolResource | undefined;
  /**
   * A tool without `confirm` whose allowed calls are still recorded in the audit trail, as a change
   * is (attempt, then outcome): it writes what later turns read (`remember`), but nobody is asked.
   */
  audited?: boolean;
  /**
   * Offered to the model (default true). A tool with false is the agent's all the same (decided,
   * confirmed and audited as any other), but runs only as the call a routing tool stands for: the
   * model reaches it through a tool with `routes`, never by its own name.
   */
  offered?: boolean;
  /**
   * A routing tool (e.g. OpenAPI's `call_operation`): the call it stands for, from its raw arguments,
   * which the guard (graph/guard-calls.ts) decides, confirms, audits and runs as the call of that
   * tool, with that tool's arguments, resource and confirmation. It names a tool of the same agent
   * that is neither itself nor another routing tool, with arguments that tool's schema takes, else
   * the call is a tool error the model reads; it may throw to say why no route is made (the model
   * reads the error's message). The routing tool's own `tool` is what the model is offered; it is
   * never run itself.
   */
  routes?: (args: Record<string, unknown>) => RoutedCall | undefined;
}

/** The call a routing tool stands for: a tool of the same agent, by name, and its arguments. */
export interface RoutedCall {
  tool: string;
  args: Record<string, unknown>;
}

/** One tool, declared once: its arguments' types come from `schema`. */
export interface ToolSpec<S extends ArgsSchema> {
  name: string;
  /** What the model reads to decide whether and how to call it. */
  description: string;
  schema: S;
  /**
   * Does the work; its text is the tool result the model reads. `ctx` is the call's own context:
   * who asks, the vendor credential the guard chose (hand it to `VendorClient.call(ctx, …)`), the
   * conversation, progress reporting and the turn's abort signal.
   */
  run: (args: z.output<S>, ctx: ToolCallContext) => Promise<string> | string;
  /**
   * Present on tools that change something: the sentence that leads the question the user answers
   * (yes or no) before `run` is called, from the validated arguments. The question lists every
   * argument after it (graph/guard-calls.ts): the sentence need not repeat them.
   */
  confirm?: (args: z.output<S>) => string;
  /**
   * What a call acts on, named from its validated arguments, so a policy can scope it: e.g.
   * `({ project }) => ({ project })` or `({ owner, repo }) => ({ owner, repository: \`${owner}/${repo}\` })`.
   * Say how case matters to the vendor (lower-case names the vendor matches case-insensitively).
   */
  resource?: (args: z.output<S>) => ToolResource;
  /** Record allowed calls in the audit trail though nobody is asked (see AgentTool.audited). */
  audited?: boolean;
  /** False: not offered to the model, run only through a routing tool (see AgentTool.offered). */
  offered?: boolean;
}

/**
 * Declares a tool: reads are tools without `confirm`, changes are tools with it. Arguments are
 * checked against the schema before anything runs (and before the user is asked).
 */
export function defineTool<S extends ArgsSchema>(spec: ToolSpec<S>): AgentTool {
  const declared = { name: spec.name, description: spec.description, schema: spec.schema };
  const forCall = (ctx: ToolCallContext): StructuredToolInterface =>
    tool((args: z.output<S>) => spec.run(args, ctx), declared);
  // Offered to the model. Run as is only outside a guarded call (a test): as the local principal
  // with the service's credential, as a call outside a turn always ran.
  const built = forCall(toolCallContext(undefined, LOCAL_PRINCIPAL, undefined, undefined));
  const { confirm, resource } = spec;
  // Both read the arguments as the tool will run with them (defaults filled); arguments the tool
  // refuses anyway are neither asked about nor decided on: the call fails before it acts.
  const validated =
    <T>(read: (args: z.output<S>) => T) =>
    (args: Record<string, unknown>): T | undefined => {
      const parsed = spec.schema.safeParse(args);
      return parsed.success ? read(parsed.data) : undefined;
    };
  return {
    tool: built,
    forCall,
    ...(confirm ? { confirm: validated(confirm) } : {}),
    runArgs: validated((args) => args as Record<string, unknown>),
    ...(resource ? { resource: validated(resource) } : {}),
    ...(spec.audited ? { audited: true } : {}),
    ...(spec.offered === false ? { offered: false } : {}),
  };
}

/** A routing tool, declared once: what the model is offered, and the call each of its calls stands for. */
export interface RoutingToolSpec<S extends ArgsSchema> {
  name: string;
  /** What the model reads to decide whether and how to call it. */
  description: string;
  schema: S;
  /**
   * The call it stands for, from the validated arguments (see AgentTool.routes). Throw to tell the
   * model why there is none (an unknown name, with the names it may use).
   */
  routes: (args: z.output<S>) => RoutedCall;
}

/**
 * Declares a routing tool (see AgentTool.routes): its calls are never run as themselves; the guard
 * runs each as the call of the tool it names. Arguments its own schema refuses are a tool error
 * naming the problem.
 */
export function defineRoutingTool<S extends ArgsSchema>(spec: RoutingToolSpec<S>): AgentTool {
  const declared = { name: spec.name, description: spec.description, schema: spec.schema };
  return {
    // Run only if a call reached it without the guard (a test calling it directly): nothing to do.
    tool: tool(() => {
      throw new Error(
        `${spec.name} routes a call to another tool: it runs only behind the runtime's call guard.`,
      );
    }, declared),
    routes: (args) => {
      const parsed = spec.schema.safeParse(args);
      if (!parsed.success)
        throw new Error(`${spec.name}: ${z.prettifyError(parsed.error).replace(/\n/g, " ")}`);
      return spec.routes(parsed.data);
    },
  };
}
