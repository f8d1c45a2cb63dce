import { useCallback, useEffect, useState } from "preact/hooks";
import { SignInNeeded } from "./api.js";

/** One memory as the supervisor's GET /memories gathers them from the fleet. */
export interface FleetMemory {
  id: string;
  agent: string;
  text: string;
  topic: string;
  source: "user" | "extracted";
  usedAt: string;
}

interface FleetMemories {
  memories: FleetMemory[];
  unavailable: Array<{ agent: string; reason: string }>;
}

/** The supervisor's memory routes, through the web server's /api (the caller's own token). */
export class MemoriesApi {
  constructor(private readonly token: () => string | undefined) {}

  async list(): Promise<FleetMemories> {
    return (await this.call("GET", "/api/memories")) as FleetMemories;
  }

  async forget(memory: FleetMemory): Promise<void> {
    await this.call(
      "DELETE",
      `/api/memories/${encodeURIComponent(memory.id)}?agent=${encodeURIComponent(memory.agent)}`,
    );
  }

  async forgetAll(): Promise<void> {
    await this.call("DELETE", "/api/memories");
  }

  /** "Forget me": every conversation, task and memory of the user across the fleet. */
  async forgetMe(): Promise<void> {
    await this.call("DELETE", "/api/me");
  }

  private async call(method: string, path: string): Promise<unknown> {
    const token = this.token();
    const response = await fetch(path, {
      method,
      headers: { accept: "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    });
    if (response.status === 401) throw new SignInNeeded("Your sign-in has expired; sign in again.");
    const answer = (await response.json().catch(() => ({}))) as { error?: string };
    if (!response.ok) throw new Error(answer.error ?? `The supervisor answered HTTP ${response.status}.`);
    return answer;
  }
}

/**
 * What the agents remember about the user (what they asked to be remembered, and facts extracted
 * when that is on): each with its agent and when it was last used, erased one by one or all at
 * once; and "forget me", which also erases every conversation (the audit trail stays).
 */
export function MemoriesPage({ api, fail }: { api: MemoriesApi; fail(error: unknown): string }) {
  const [answer, setAnswer] = useState<FleetMemories>();
  const [problem, setProblem] = useState<string>();
  const [notice, setNotice] = useState<string>();

  const load = useCallback(() => {
    api.list().then(setAnswer, (error: unknown) => setProblem(fail(error)));
  }, [api, fail]);
  useEffect(load, [load]);

  const act = async (run: () => Promise<void>, done: string) => {
    setProblem(undefined);
    setNotice(undefined);
    try {
      await run();
      setNotice(done);
      load();
    } catch (error) {
      setProblem(fail(error));
    }
  };

  return (
    <section aria-labelledby="memories-heading" class="memories">
      <h2 id="memories-heading">Memories</h2>
      <p class="muted">
        What the agents remember about you across conversations. Ask an agent to “remember that …” to add one.
        Memories not used for a while are forgotten.
      </p>
      {problem ? (
        <p class="error" role="alert">
          {problem}
        </p>
      ) : null}
      {notice ? <output class="notice">{notice}</output> : null}
      {answer === undefined ? <p class="muted">Loading…</p> : null}
      {answer && answer.memories.length === 0 ? <p class="muted">Nothing is remembered about you.</p> : null}
      <ul class="memory-list">
        {answer?.memories.map((memory) => (
          <li key={`${memory.agent}/${memory.id}`}>
            <span class="memory-text">{memory.text}</span>{" "}
            <span class="muted">
              {memory.agent} · {memory.source === "user" ? "you asked" : "learned"} · last used{" "}
              {new Date(memory.usedAt).toLocaleString()}
            </span>{" "}
            <button type="button" onClick={() => void act(() => api.forget(memory), "Forgotten.")}>
              Forget
            </button>
          </li>
        ))}
      </ul>
      {answer?.unavailable.length ? (
        <p class="muted">Not reachable now: {answer.unavailable.map((entry) => entry.agent).join(", ")}.</p>
      ) : null}
      <p>
        <button
          type="button"
          disabled={!answer?.memories.length}
          onClick={() => void act(() => api.forgetAll(), "Every memory is forgotten.")}
        >
          Forget all memories
        </button>{" "}
        <button
          type="button"
          class="danger"
          onClick={() => {
            if (!confirm("Erase all your conversations and memories on every agent? This cannot be undone."))
              return;
            void act(() => api.forgetMe(), "Your conversations and memories are erased.");
          }}
        >
          Forget me
        </button>
      </p>
    </section>
  );
}
