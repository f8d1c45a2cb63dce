import { type AgentConnection, connectAgent } from "@switchboard/a2a-client";
import { type Fleet, startFleet } from "@switchboard/fleet";
import { evalInputError } from "./errors.js";
import type { Target } from "./run/run-case.js";
import { traceDestination } from "./run/trace-destination.js";
import { startTraceCollector, type TraceCollector } from "./run/traces.js";
import { SUPERVISOR } from "./set/load.js";
import { type CaseVendors, startVendorRecorder, type VendorRecorder } from "./vendors/recorder.js";

/**
 * One side of a comparison: a running fleet (its supervisor's URL; other agents at `agents`), or a
 * fleet the evaluation starts from the repository with these settings on top of the environment
 * (another model, another prompt, another agent version).
 */
export type Configuration =
  | {
      name: string;
      url: string;
      agents?: Record<string, string>;
      token?: string;
      /** Where this fleet's traces arrive, when it exports to the evaluation. */
      traces?: TraceCollector;
      /** The proxies this fleet's vendor URLs point at, when its vendors are recorded or replayed. */
      vendors?: VendorRecorder;
    }
  | {
      name: string;
      root: string;
      env: NodeJS.ProcessEnv;
      token?: string;
      /** Record the vendors into this folder, replay them from it (no vendor reached), or forward each case's calls. */
      vendors?: { mode: "record" | "replay" | "forward"; dir: string; names?: string[] };
      /** Each case's own vendors (fresh fakes seeded for it), behind the proxies. */
      caseVendors?: CaseVendors;
    };

export interface OpenTarget extends Target {
  /** Agents of a started fleet that did not start, each with why (their cases fail on routing). */
  failed?: Array<{ name: string; error: string }>;
  close(): Promise<void>;
}

/** A configuration made ready to run cases against; a started fleet is stopped by `close`. */
export async function openTarget(
  config: Configuration,
  options: { otlpHost?: string } = {},
): Promise<OpenTarget> {
  if ("url" in config)
    return {
      ...connector(config.url, config.agents ?? {}, config.token),
      ...(config.traces ? { traces: config.traces } : {}),
      ...(config.vendors ? { vendors: config.vendors } : {}),
      close: async () => {},
    };
  // The fleet exports to the evaluation, which passes every export on to where its settings send them.
  const passOn = traceDestination(config.env);
  const traces = await startTraceCollector({
    host: options.otlpHost ?? "127.0.0.1",
    ...(passOn ? { passOn } : {}),
  });
  const vendors = config.vendors
    ? await startVendorRecorder({
        mode: config.vendors.mode,
        dir: config.vendors.dir,
        env: config.env,
        ...(config.vendors.names ? { vendors: config.vendors.names } : {}),
      })
    : undefined;
  let fleet: Fleet;
  try {
    // Cases ask the supervisor (or an agent) over A2A: no web chat to start.
    fleet = await startFleet({
      root: config.root,
      env: { ...config.env, ...traces.env, ...vendors?.env },
      web: false,
    });
  } catch (error) {
    await Promise.all([traces.close(), vendors?.close()]);
    throw evalInputError(`The fleet for "${config.name}" did not start: ${(error as Error).message}`, error);
  }
  const agents = Object.fromEntries(fleet.agents.map((agent) => [agent.name, agent.url]));
  return {
    ...connector(fleet.supervisor.url, agents, config.token),
    traces,
    ...(vendors ? { vendors } : {}),
    ...(config.caseVendors ? { caseVendors: config.caseVendors } : {}),
    failed: fleet.failed,
    close: async () => {
      await fleet.stop();
      await Promise.all([traces.close(), vendors?.close()]);
    },
  };
}

function connector(supervisorUrl: string, agents: Record<string, string>, token: string | undefined): Target {
  const connections = new Map<string, Promise<AgentConnection>>();
  return {
    connect(agent) {
      const url = agent === SUPERVISOR ? supervisorUrl : agents[agent];
      if (!url)
        return Promise.reject(
          evalInputError(
            `A case targets the ${agent} agent, which this fleet does not run (or whose URL was not given).`,
          ),
        );
      let connection = connections.get(agent);
      if (!connection) {
        connection = connectAgent(url, token ? { token } : {});
        connection.catch(() => connections.delete(agent));
        connections.set(agent, connection);
      }
      return connection;
    },
  };
}
