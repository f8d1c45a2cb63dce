import { connectMcpServer } from "@switchboard/agent-runtime";
import { isSwitchboardError, type Logger } from "@switchboard/common";
import { openApiTools, type ToolsOptions } from "@switchboard/openapi-tools";
import type { ToolSource } from "../build/tools.js";
import type { DefinitionProblem, ToolSourceSpec } from "../definitions/spec.js";

/** One connected tool source: what agents were built from, closed once none of them is left. */
export interface ToolSourceHandle {
  id: string;
  /** What it was connected from: a changed definition connects anew. */
  key: string;
  source: ToolSource;
  close(): Promise<void>;
}

/**
 * The host's tool sources, each connected once and shared by every agent that allows it (one MCP
 * session, one parsed OpenAPI description). A changed source is connected anew beside the old one,
 * which is closed only when no running agent still uses it; one that cannot be reached is a problem
 * naming it, and the agents that allow it keep their last good build.
 */
export class ToolSources {
  private readonly current = new Map<string, ToolSourceHandle>();
  private readonly retired = new Set<ToolSourceHandle>();

  constructor(private readonly options: { env: NodeJS.ProcessEnv; logger: Logger; timeoutMs: number }) {}

  /** Connects what is new or changed; returns the sources by id and the ones that failed. */
  async sync(
    specs: ToolSourceSpec[],
  ): Promise<{ sources: Map<string, ToolSourceHandle>; problems: DefinitionProblem[] }> {
    const problems: DefinitionProblem[] = [];
    const wanted = new Map(specs.map((spec) => [spec.id, spec]));
    for (const [id, handle] of this.current) {
      if (wanted.get(id) && keyOf(wanted.get(id) as ToolSourceSpec) === handle.key) continue;
      this.current.delete(id);
      this.retired.add(handle);
    }
    await Promise.all(
      [...wanted.values()]
        .filter((spec) => !this.current.has(spec.id))
        .map(async (spec) => {
          try {
            this.current.set(spec.id, await this.connect(spec));
          } catch (error) {
            const reason = error instanceof Error ? error.message : String(error);
            const list = spec.kind === "mcp" ? "mcp_servers" : "openapi_sources";
            // A description read but refused (a tag it lacks, no server) says so itself.
            const refused = spec.kind === "openapi" && isSwitchboardError(error) && error.category === "user";
            problems.push({
              field: `${list}.${spec.id}`,
              message: refused ? reason : `cannot be reached: ${reason}`,
            });
            this.options.logger.error(
              { source: spec.id, reason },
              `tool source "${spec.id}" cannot be reached`,
            );
          }
        }),
    );
    return { sources: new Map(this.current), problems };
  }

  /** Closes retired sources no running agent uses any more. */
  async prune(inUse: ReadonlySet<ToolSourceHandle>): Promise<void> {
    for (const handle of this.retired) {
      if (inUse.has(handle)) continue;
      this.retired.delete(handle);
      await closeQuietly(handle, this.options.logger);
    }
  }

  async close(): Promise<void> {
    const all = [...this.current.values(), ...this.retired];
    this.current.clear();
    this.retired.clear();
    await Promise.all(all.map((handle) => closeQuietly(handle, this.options.logger)));
  }

  private async connect(spec: ToolSourceSpec): Promise<ToolSourceHandle> {
    const { env, logger, timeoutMs } = this.options;
    const key = keyOf(spec);
    if (spec.kind === "mcp") {
      const server = await connectMcpServer(
        { name: spec.id, config: spec.config },
        { env, logger, timeoutMs, source: `mcp_servers "${spec.id}"` },
      );
      return { id: spec.id, key, source: server, close: () => server.close() };
    }
    const api = await openApiTools({
      document: spec.document,
      ...(spec.baseUrl ? { baseUrl: spec.baseUrl } : {}),
      ...(spec.auth ? { auth: spec.auth } : {}),
      ...(spec.serverVariables ? { serverVariables: spec.serverVariables } : {}),
      ...(spec.tokenUrls ? { tokenUrls: spec.tokenUrls } : {}),
      env,
      logger,
      label: `OpenAPI source "${spec.id}"`,
    });
    const bounds = {
      ...(spec.tags ? { tags: spec.tags } : {}),
      ...(spec.operations ? { operations: spec.operations } : {}),
      ...(spec.maxTools ? { maxTools: spec.maxTools } : {}),
    };
    // A tag or operation the description lacks fails the source here, naming the ones it has.
    api.tools(bounds);
    const source = { tools: (options: ToolsOptions = {}) => api.tools({ ...options, ...bounds }) };
    return { id: spec.id, key, source, close: async () => {} };
  }
}

function keyOf(spec: ToolSourceSpec): string {
  return JSON.stringify(spec);
}

async function closeQuietly(handle: ToolSourceHandle, logger: Logger): Promise<void> {
  try {
    await handle.close();
  } catch (error) {
    logger.warn({ source: handle.id, err: error }, "closing a tool source failed");
  }
}
