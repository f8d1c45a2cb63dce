import { SignInNeeded } from "./api.js";

/** A run as the trigger receiver's history gives it (tools/triggers, GET /api/v1/runs). */
export interface TriggerRun {
  run_id: string;
  task_id: string;
  delivery_id: string;
  status: "running" | "success" | "failed" | "input-required" | "declined" | "expired";
  received_at: string;
  finished_at?: string;
  trace_id: string;
  thread?: { channel: string; ts: string };
  error?: string;
  /** What its turns cost on the model, their subagents' included. */
  spend?: { model_calls: number; tokens: number };
  confirmation?: { question: string; expires_at: string; decision?: string; decided_by?: string };
}

/** A task the receiver runs, and what starts it. */
export interface TriggerTask {
  id: string;
  name: string;
  trigger: string;
  schedule?: string;
  timezone?: string;
  enabled: boolean;
  destinations: string[];
}

/** What the receiver refused, in its words; `off` when the web server has no TRIGGERS_URL. */
export class TriggersApiError extends Error {
  override readonly name = "TriggersApiError";
  constructor(
    message: string,
    readonly status: number,
    readonly off = false,
  ) {
    super(message);
  }
}

/** The trigger receiver's run history and decisions, through the web server's /api/triggers. */
export class TriggersApi {
  constructor(private readonly token: () => string | undefined) {}

  async tasks(): Promise<TriggerTask[]> {
    return ((await this.call("GET", "/api/triggers/tasks")) as { tasks: TriggerTask[] }).tasks;
  }

  async runs(): Promise<TriggerRun[]> {
    return ((await this.call("GET", "/api/triggers/runs")) as { runs: TriggerRun[] }).runs;
  }

  /** Approve or decline the change a run waits on, as the signed-in user: the agent's policy decides. */
  async decide(runId: string, decision: "approve" | "decline"): Promise<string> {
    const answer = (await this.call("POST", `/api/triggers/runs/${encodeURIComponent(runId)}/decision`, {
      decision,
    })) as { status: string };
    return answer.status;
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
    const answer = (await response.json().catch(() => undefined)) as
      | { error?: unknown; code?: unknown }
      | undefined;
    if (!response.ok) {
      const message = typeof answer?.error === "string" ? answer.error : `HTTP ${response.status}`;
      throw new TriggersApiError(message, response.status, answer?.code === "triggers_off");
    }
    return answer;
  }
}
