import type { AgentSkillSummary } from "@switchboard/a2a-client";
import type { ConversationHistory, ConversationSummary, ConversationTask } from "@switchboard/agent-runtime";

export type { ConversationHistory, ConversationSummary, ConversationTask };

/** A subagent as the supervisor's GET /subagents reports it (packages/delegation/src/roster.ts). */
export interface SubagentReport {
  name: string;
  /** `available` when calls reach it; else why not in `reason`. */
  status: "connecting" | "available" | "refused" | "unreachable";
  /** From its card, once it was read. */
  description?: string;
  skills: AgentSkillSummary[];
  reason?: string;
}

/** The supervisor refused the token (expired, or signed by someone else): the user signs in again. */
export class SignInNeeded extends Error {
  override readonly name = "SignInNeeded";
}

/** The supervisor's conversation and roster routes, through the web server's /api. */
export class SupervisorApi {
  constructor(private readonly token: () => string | undefined) {}

  async conversations(): Promise<ConversationSummary[]> {
    const body = (await this.call("GET", "/api/conversations")) as { conversations: ConversationSummary[] };
    return body.conversations;
  }

  /** One conversation's history; undefined when the caller has none by that id (yet). */
  async conversation(contextId: string): Promise<ConversationHistory | undefined> {
    return (await this.call("GET", `/api/conversations/${encodeURIComponent(contextId)}`, true)) as
      | ConversationHistory
      | undefined;
  }

  async deleteConversation(contextId: string): Promise<void> {
    await this.call("DELETE", `/api/conversations/${encodeURIComponent(contextId)}`);
  }

  async subagents(): Promise<SubagentReport[]> {
    const body = (await this.call("GET", "/api/subagents")) as { subagents: SubagentReport[] };
    return body.subagents;
  }

  private async call(method: string, path: string, missingIsEmpty = false): Promise<unknown> {
    const token = this.token();
    const response = await fetch(path, {
      method,
      headers: { accept: "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    });
    if (response.status === 401) throw new SignInNeeded("Your sign-in has expired; sign in again.");
    if (response.status === 404 && missingIsEmpty) return undefined;
    const body = (await response.json().catch(() => ({}))) as { error?: string };
    if (!response.ok) throw new Error(body.error ?? `The supervisor answered HTTP ${response.status}.`);
    return body;
  }
}
