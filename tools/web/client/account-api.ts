import { useCallback, useEffect, useState } from "preact/hooks";
import { SignInNeeded } from "./api.js";

/** One agent's answer about linked tokens, as the supervisor gathers it (GET /linked-tokens). */
export interface AgentLinks {
  agent: string;
  enabled: boolean;
  vendor?: { vendor: string; title: string; hint: string };
  linked?: Array<{ vendor: string; title: string; linkedAt: string }>;
  reason?: string;
}

export interface FleetLinks {
  agents: AgentLinks[];
  unavailable: Array<{ agent: string; reason: string }>;
}

/** One audit line as the supervisor's GET /audit gathers them (agent-runtime's audit entry). */
export interface AuditLine {
  seq: number;
  at: string;
  agent: string;
  kind: "attempt" | "outcome" | "denial";
  principal: { subject: string; name?: string; email?: string };
  tool: string;
  args: Record<string, unknown>;
  resource?: Record<string, string>;
  decision: "allow" | "deny";
  policy: string[];
  outcome?: string;
  /** Who answered the confirmation (a subject): the user, or an approver the policy let decide. */
  confirmedBy?: string;
  /** For a decision on another user's change: whose change it was. */
  requester?: { subject: string; name?: string; email?: string };
  error?: string;
}

export interface AuditAnswer {
  lines: AuditLine[];
  unavailable: Array<{ agent: string; reason: string }>;
  onlySubject?: string;
}

/** One memory as the supervisor's GET /memories gathers them from the fleet. */
export interface FleetMemory {
  id: string;
  agent: string;
  text: string;
  topic: string;
  source: "user" | "extracted";
  usedAt: string;
}

export interface FleetMemories {
  memories: FleetMemory[];
  unavailable: Array<{ agent: string; reason: string }>;
}

export interface AuditFilters {
  subject?: string;
  agent?: string;
  since?: string;
  until?: string;
}

/** The supervisor's account routes the side pages use (linked tokens, memories, audit), through /api. */
export class AccountApi {
  constructor(private readonly token: () => string | undefined) {}

  async links(): Promise<FleetLinks> {
    return (await this.call("GET", "/api/linked-tokens")) as FleetLinks;
  }

  /** Stores the token at the agents that take this vendor's; the answer never holds it. */
  async link(vendor: string, token: string): Promise<void> {
    await this.call("PUT", `/api/linked-tokens/${encodeURIComponent(vendor)}`, { token });
  }

  async unlink(vendor: string): Promise<void> {
    await this.call("DELETE", `/api/linked-tokens/${encodeURIComponent(vendor)}`);
  }

  async memories(): Promise<FleetMemories> {
    return (await this.call("GET", "/api/memories")) as FleetMemories;
  }

  async forgetMemory(memory: FleetMemory): Promise<void> {
    await this.call(
      "DELETE",
      `/api/memories/${encodeURIComponent(memory.id)}?agent=${encodeURIComponent(memory.agent)}`,
    );
  }

  async forgetAllMemories(): Promise<void> {
    await this.call("DELETE", "/api/memories");
  }

  /** "Forget me": every conversation, task and memory of the user across the fleet. */
  async forgetMe(): Promise<void> {
    await this.call("DELETE", "/api/me");
  }

  /** The fleet's audit lines; a refusal (403) is thrown with the policy's words. */
  async audit(filters: AuditFilters): Promise<AuditAnswer> {
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(filters)) if (value) query.set(name, value);
    query.set("limit", "200");
    return (await this.call("GET", `/api/audit?${query}`)) as AuditAnswer;
  }

  private async call(method: string, path: string, body?: unknown): Promise<unknown> {
    const token = this.token();
    const response = await fetch(path, {
      method,
      headers: {
        accept: "application/json",
        ...(body ? { "content-type": "application/json" } : {}),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    if (response.status === 401) throw new SignInNeeded("Your sign-in has expired; sign in again.");
    const answer = (await response.json().catch(() => ({}))) as { error?: string };
    if (!response.ok) throw new Error(answer.error ?? `The supervisor answered HTTP ${response.status}.`);
    return answer;
  }
}

/** A side page's list: loaded at once, what went wrong, and what the last action did. */
export interface AccountList<T> {
  /** Undefined while loading (or when loading failed). */
  value: T | undefined;
  problem: string | undefined;
  notice: string | undefined;
  /** Runs an action, then says `done` and loads the list again; a failure is shown instead. */
  act(run: () => Promise<void>, done: string): Promise<void>;
}

/** Loads a side page's list with `load` (and again after each action); `fail` words an error. */
export function useAccountList<T>(load: () => Promise<T>, fail: (error: unknown) => string): AccountList<T> {
  const [value, setValue] = useState<T>();
  const [problem, setProblem] = useState<string>();
  const [notice, setNotice] = useState<string>();
  const reload = useCallback(() => {
    load().then(setValue, (error: unknown) => setProblem(fail(error)));
  }, [load, fail]);
  useEffect(reload, [reload]);
  const act = async (run: () => Promise<void>, done: string) => {
    setProblem(undefined);
    setNotice(undefined);
    try {
      await run();
      setNotice(done);
      reload();
    } catch (error) {
      setProblem(fail(error));
    }
  };
  return { value, problem, notice, act };
}
