import { useState } from "preact/hooks";
import type { AccountApi, AuditAnswer, AuditFilters } from "./account-api.js";

/**
 * The fleet's audit trail, filtered by user, agent and time. Whether the caller may read it is the
 * agents' policies' decision: a refusal is shown as the supervisor words it.
 */
export function AuditPage({ api, fail }: { api: AccountApi; fail(error: unknown): string }) {
  const [filters, setFilters] = useState<AuditFilters>({});
  const [answer, setAnswer] = useState<AuditAnswer>();
  const [problem, setProblem] = useState<string>();
  const [busy, setBusy] = useState(false);

  const set = (name: keyof AuditFilters) => (event: Event) =>
    setFilters({ ...filters, [name]: (event.target as HTMLInputElement).value });

  const search = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setProblem(undefined);
    try {
      setAnswer(
        await api.audit({
          ...filters,
          ...(filters.since ? { since: new Date(filters.since).toISOString() } : {}),
          ...(filters.until ? { until: new Date(filters.until).toISOString() } : {}),
        }),
      );
    } catch (error) {
      setAnswer(undefined);
      setProblem(fail(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="audit-heading" class="audit">
      <h2 id="audit-heading">Audit</h2>
      <form class="audit-filters" onSubmit={(event) => void search(event)}>
        <label>
          User <input name="subject" value={filters.subject ?? ""} onInput={set("subject")} />
        </label>
        <label>
          Agent <input name="agent" value={filters.agent ?? ""} onInput={set("agent")} />
        </label>
        <label>
          From <input name="since" type="datetime-local" value={filters.since ?? ""} onInput={set("since")} />
        </label>
        <label>
          To <input name="until" type="datetime-local" value={filters.until ?? ""} onInput={set("until")} />
        </label>
        <button type="submit" class="primary" disabled={busy}>
          Show
        </button>
      </form>
      {problem ? (
        <p class="error" role="alert">
          {problem}
        </p>
      ) : null}
      {answer?.onlySubject ? <p class="muted">Only your own actions are shown.</p> : null}
      {answer && answer.lines.length === 0 ? <p class="muted">Nothing recorded for these filters.</p> : null}
      {answer && answer.lines.length > 0 ? (
        <div class="table-scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Agent</th>
                <th scope="col">User</th>
                <th scope="col">Action</th>
                <th scope="col">On</th>
                <th scope="col">Decision</th>
              </tr>
            </thead>
            <tbody>
              {[...answer.lines].reverse().map((line) => (
                <tr key={`${line.agent}-${line.seq}`}>
                  <td>
                    <time dateTime={line.at}>{new Date(line.at).toLocaleString()}</time>
                  </td>
                  <td>{line.agent}</td>
                  <td>{line.principal.email ?? line.principal.name ?? line.principal.subject}</td>
                  <td>{line.tool}</td>
                  <td>
                    {Object.entries(line.resource ?? {})
                      .map(([kind, name]) => `${kind} ${name}`)
                      .join(", ")}
                  </td>
                  <td>
                    {line.decision === "deny" ? "denied" : (line.outcome ?? "allowed")}
                    {line.policy.length ? <span class="muted"> ({line.policy.join(", ")})</span> : null}
                    {line.requester ? (
                      <span class="muted">
                        {line.kind === "denial"
                          ? ` deciding ${line.requester.email ?? line.requester.name ?? line.requester.subject}'s change`
                          : ` approved by ${line.confirmedBy}`}
                      </span>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {answer && answer.unavailable.length > 0 ? (
        <p class="muted">
          Not included: {answer.unavailable.map((agent) => `${agent.agent} (${agent.reason})`).join("; ")}
        </p>
      ) : null}
    </section>
  );
}
