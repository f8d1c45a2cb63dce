/** The `type` of the message an agent process sends once it serves. */
export const AGENT_READY = "switchboard:agent-ready";

/**
 * Set to "ipc" by a parent that wants {@link AgentReady} over the IPC channel it opened. Without
 * it the signal is not sent: a process forked by someone else (a test runner's worker serving an
 * agent in-process) has a channel that is not the agent's to use.
 */
export const READY_CHANNEL_ENV = "SWITCHBOARD_READY_CHANNEL";

/**
 * What an agent process tells the process that started it (the local fleet, a test) once it
 * serves, over Node's IPC channel: its name and the port it bound (PORT=0 binds a free one).
 * Logs are for people; this is how programs learn that an agent is up and where.
 */
export interface AgentReady {
  type: typeof AGENT_READY;
  agent: string;
  port: number;
  /** Its public URL (AGENT_PUBLIC_URL, else the loopback URL of its port). */
  url: string;
}

/**
 * Sends {@link AgentReady} when the process's parent asked for it ({@link READY_CHANNEL_ENV}),
 * else does nothing (docker, Kubernetes and `pnpm start` learn readiness from GET /ready). The
 * channel is then unreferenced: it never keeps a stopping agent alive.
 */
export function announceReady(ready: Omit<AgentReady, "type">): void {
  if (process.env[READY_CHANNEL_ENV] !== "ipc" || !process.send) return;
  process.send({ type: AGENT_READY, ...ready } satisfies AgentReady);
  process.channel?.unref();
}

/** The ready message in something a child process sent, or undefined for anything else. */
export function readyMessage(message: unknown): AgentReady | undefined {
  if (typeof message !== "object" || message === null) return undefined;
  const { type, agent, port, url } = message as Record<string, unknown>;
  if (type !== AGENT_READY || typeof agent !== "string" || typeof url !== "string") return undefined;
  if (typeof port !== "number" || !Number.isInteger(port) || port <= 0 || port > 65_535) return undefined;
  return { type, agent, port, url };
}
