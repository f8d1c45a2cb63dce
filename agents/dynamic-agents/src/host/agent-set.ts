import { type MountedAgent, mountAgent, type Principal } from "@switchboard/agent-runtime";
import type { Logger } from "@switchboard/common";
import type { MongoClient } from "mongodb";
import { agentDefinition } from "../build/definition.js";
import { modelEnv } from "../build/model.js";
import { subagentsFor } from "../build/subagents.js";
import { toolsFor } from "../build/tools.js";
import { visibleTo } from "../build/visibility.js";
import type { AgentSpec, DefinitionProblem, Definitions } from "../definitions/spec.js";
import type { ToolSourceHandle, ToolSources } from "./tool-sources.js";

/** One configured agent being served. */
export interface RunningAgent {
  spec: AgentSpec;
  /** What it was built from (its revision, its sources' connections, its subagents): a change rebuilds it. */
  key: string;
  agent: MountedAgent;
  /** The tool sources it was built on (kept open while it runs). */
  sources: Set<ToolSourceHandle>;
  /** Whether a principal may reach it by its visibility (its policies decide too). */
  visibleTo(principal: Principal): boolean;
}

export interface AgentSetOptions {
  env: NodeJS.ProcessEnv;
  logger: Logger;
  authMode: "none" | "jwt";
  mongo?: MongoClient;
  sources: ToolSources;
  /** The URL on each agent's card: `<public base>/agents/<id>`. */
  publicUrl(id: string): string;
  /** The URL another agent of this host calls it at (loopback). */
  localUrl(id: string): string;
  /** Where the host answers A2A over gRPC (host:port, on each card with the agent's id as tenant); none: off. */
  grpcAddress?: string;
  shutdownGraceMs: number;
  /** The process's name in traces. */
  serviceName: string;
  /** How many agents are built at once (each opens its collections). */
  concurrency?: number;
}

/**
 * The agents the host serves, kept equal to the definitions: a new or changed definition is built
 * beside the running agent and replaces it only once it is ready (the old one then drains its turns);
 * a removed or disabled one drains and closes; one that fails to build keeps the last good agent and
 * is logged with why, naming the agent and the field. Agents whose definitions did not change are not
 * touched. Changes are applied one set at a time, in order.
 */
export class AgentSet {
  private readonly running = new Map<string, RunningAgent>();
  /** Agents replaced or removed, finishing their turns (their tool sources stay open meanwhile). */
  private readonly draining = new Map<RunningAgent, Promise<void>>();
  private queue: Promise<void> = Promise.resolve();
  private failures = new Map<string, DefinitionProblem[]>();

  constructor(private readonly options: AgentSetOptions) {}

  get(id: string): RunningAgent | undefined {
    return this.running.get(id);
  }

  list(): RunningAgent[] {
    return [...this.running.values()];
  }

  /** Why each agent that failed its last build was refused (its last good one may still run). */
  problems(): ReadonlyMap<string, DefinitionProblem[]> {
    return this.failures;
  }

  /** Applies `definitions` after any change still being applied. */
  /** What a failed build of agent `id` leaves, in the words its log line ends with. */
  private whatStays(id: string): string {
    return this.running.has(id) ? "the last good definition stays in service" : "it is not served";
  }

  reconcile(definitions: Definitions): Promise<void> {
    const next = this.queue.then(() => this.apply(definitions));
    this.queue = next.catch(() => {});
    return next;
  }

  /** Resolves once every change asked for so far is applied. */
  settled(): Promise<void> {
    return this.queue;
  }

  /** Drains every agent (turns get the grace period), then closes the tool sources. */
  async close(graceMs = this.options.shutdownGraceMs): Promise<void> {
    await this.queue;
    const agents = [...this.running.values()];
    this.running.clear();
    await Promise.all([...agents.map((running) => running.agent.drain(graceMs)), ...this.draining.values()]);
    await this.options.sources.close();
  }

  private async apply(definitions: Definitions): Promise<void> {
    const { logger } = this.options;
    const wanted = definitions.agents.filter((spec) => spec.enabled);
    const ids = new Set(wanted.map((spec) => spec.id));
    const { sources, problems: sourceProblems } = await this.options.sources.sync(definitions.toolSources);
    const failures = new Map<string, DefinitionProblem[]>();
    const builds = wanted.map((spec) => async () => {
      const planned = this.plan(spec, sources, ids);
      if ("problems" in planned) {
        const own = [...planned.problems, ...sourceProblemsFor(spec, sourceProblems)];
        failures.set(spec.id, own);
        const kept = this.whatStays(spec.id);
        for (const problem of own) {
          logger.error(
            { agentId: spec.id, field: problem.field },
            `agent "${spec.id}" refused (${problem.field}): ${problem.message}; ${kept}`,
          );
        }
        return;
      }
      if (this.running.get(spec.id)?.key === planned.key) return;
      try {
        const agent = await mountAgent(planned.definition, {
          env: planned.env,
          publicUrl: this.options.publicUrl(spec.id),
          ...(this.options.grpcAddress
            ? { grpc: { address: this.options.grpcAddress, tenant: spec.id } }
            : {}),
          // The process is the host in traces; its agents are told apart by gen_ai.agent.name.
          serviceName: this.options.serviceName,
          ...(this.options.mongo ? { mongo: this.options.mongo } : {}),
        });
        const old = this.running.get(spec.id);
        this.running.set(spec.id, {
          spec,
          key: planned.key,
          agent,
          sources: planned.sources,
          visibleTo: visibleTo(spec, this.options.authMode),
        });
        logger.info({ agentId: spec.id, revision: spec.revision }, old ? "agent replaced" : "agent served");
        if (old) this.retire(old);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        failures.set(spec.id, [{ agent: spec.id, field: "agent", message }]);
        const kept = this.whatStays(spec.id);
        logger.error({ agentId: spec.id }, `agent "${spec.id}" could not be started: ${message}; ${kept}`);
      }
    });
    await inBatches(builds, this.options.concurrency ?? 8);
    for (const [id, running] of this.running) {
      if (ids.has(id)) continue;
      this.running.delete(id);
      logger.info({ agentId: id }, "agent removed");
      this.retire(running);
    }
    this.failures = failures;
    await this.options.sources.prune(this.sourcesInUse());
  }

  private sourcesInUse(): Set<ToolSourceHandle> {
    return new Set(
      [...this.running.values(), ...this.draining.keys()].flatMap((agent) => [...agent.sources]),
    );
  }

  /** What an agent is built from, or why it cannot be. */
  private plan(
    spec: AgentSpec,
    sources: ReadonlyMap<string, ToolSourceHandle>,
    hostAgents: ReadonlySet<string>,
  ):
    | { problems: DefinitionProblem[] }
    | {
        key: string;
        env: NodeJS.ProcessEnv;
        definition: ReturnType<typeof agentDefinition>;
        sources: Set<ToolSourceHandle>;
      } {
    const env = modelEnv(spec, this.options.env);
    if ("field" in env) return { problems: [env as DefinitionProblem] };
    const used = Object.keys(spec.allowedTools).flatMap((id) => {
      const handle = sources.get(id);
      return handle ? [handle] : [];
    });
    const tools = toolsFor(spec, new Map(used.map((handle) => [handle.id, handle.source])));
    const subagents = subagentsFor(spec, {
      hostAgentUrl: (id) => (hostAgents.has(id) ? this.options.localUrl(id) : undefined),
    });
    const problems = [...tools.problems, ...subagents.problems];
    if (problems.length > 0) return { problems };
    const key = JSON.stringify([spec.revision, used.map((handle) => handle.key), subagents.configs]);
    return {
      key,
      env: { ...(env as NodeJS.ProcessEnv), AGENT_NAME: spec.id },
      // Decided on each turn by the served agent's visibility now (a team's agent shared anew counts at once).
      definition: agentDefinition(
        spec,
        tools.tools,
        subagents.configs,
        (id, principal) => this.running.get(id)?.visibleTo(principal) ?? false,
      ),
      sources: new Set(used),
    };
  }

  /** An agent replaced or removed: its running turns finish (up to the grace period), then it closes. */
  private retire(running: RunningAgent): void {
    const drained = running.agent
      .drain(this.options.shutdownGraceMs)
      .catch((error) =>
        this.options.logger.warn({ agentId: running.spec.id, err: error }, "draining an agent failed"),
      )
      .finally(() => {
        this.draining.delete(running);
        void this.options.sources.prune(this.sourcesInUse());
      });
    this.draining.set(running, drained);
  }
}

/** The tool-source problems that concern one agent (the sources it allows). */
function sourceProblemsFor(spec: AgentSpec, problems: DefinitionProblem[]): DefinitionProblem[] {
  return problems.filter((problem) =>
    Object.keys(spec.allowedTools).some((id) => problem.field.endsWith(`.${id}`)),
  );
}

async function inBatches(tasks: Array<() => Promise<void>>, size: number): Promise<void> {
  const pending = [...tasks];
  const worker = async () => {
    for (let task = pending.shift(); task; task = pending.shift()) await task();
  };
  await Promise.all(Array.from({ length: Math.min(size, pending.length) }, worker));
}
