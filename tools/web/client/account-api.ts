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
  confirmedBy?: string;
  error?: string;
}

export interface AuditAnswer {
  lines: AuditLine[];
  unavailable: Array<{ agent: string; reason: string }>;
  onlySubject?: string;
}

export interface AuditFilters {
  subject?: string;
  agent?: string;
  since?: string;
  until?: string;
}

/** The supervisor's account routes the side pages use (linked tokens, audit), through /api. */
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
