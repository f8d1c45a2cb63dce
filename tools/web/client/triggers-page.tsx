import { useCallback, useEffect, useMemo, useState } from "preact/hooks";
import { type TriggerRun, TriggersApi, TriggersApiError, type TriggerTask } from "./triggers-api.js";

const STATUS_WORDS: Record<TriggerRun["status"], string> = {
  running: "running",
  success: "answered",
  failed: "failed",
  "input-required": "waits for an approver",
  declined: "declined",
  expired: "expired unanswered",
};

/**
 * What triggered runs did (the trigger receiver's history): each run's task, status, when, its trace,
 * the thread it answered in and why it failed; a change a run waits on can be approved or declined
 * here, as the signed-in user, and the agent's policy decides whether they may.
 */
export function TriggersPage({
  token,
  fail,
}: {
  token: () => string | undefined;
  fail(error: unknown): string;
}) {
  const api = useMemo(() => new TriggersApi(token), [token]);
  const [runs, setRuns] = useState<TriggerRun[]>();
  const [tasks, setTasks] = useState<Map<string, TriggerTask>>(new Map());
  const [off, setOff] = useState<string>();
  const [problem, setProblem] = useState<string>();
  const [notice, setNotice] = useState<string>();

  const reload = useCallback(() => {
    Promise.all([api.tasks(), api.runs()]).then(
      ([taskList, runList]) => {
        setTasks(new Map(taskList.map((task) => [task.id, task])));
        setRuns(runList);
      },
      (error: unknown) => {
        if (error instanceof TriggersApiError && error.off) setOff(error.message);
        else setProblem(fail(error));
      },
    );
  }, [api, fail]);
  useEffect(reload, [reload]);

  const decide = async (run: TriggerRun, decision: "approve" | "decline") => {
    setProblem(undefined);
    setNotice(undefined);
    try {
      const status = await api.decide(run.run_id, decision);
      setNotice(`The run is ${STATUS_WORDS[status as TriggerRun["status"]] ?? status}.`);
    } catch (error) {
      setProblem(error instanceof TriggersApiError ? error.message : fail(error));
    }
    reload();
  };

  return (
    <section aria-labelledby="triggers-heading" class="triggers">
      <h2 id="triggers-heading">Triggered runs</h2>
      {off ? <p>{off}</p> : null}
      {problem ? <p role="alert">{problem}</p> : null}
      {notice ? <p role="status">{notice}</p> : null}
      {runs && runs.length === 0 ? <p>No run yet: a webhook or a schedule starts one.</p> : null}
      {runs && runs.length > 0 ? (
        <table>
          <thead>
            <tr>
              <th scope="col">Task</th>
              <th scope="col">Status</th>
              <th scope="col">Received</th>
              <th scope="col">Took</th>
              <th scope="col">Cost</th>
              <th scope="col">Trace</th>
              <th scope="col">Thread</th>
            </tr>
          </thead>
          <tbody>
            {runs.map((run) => (
              <tr key={run.run_id}>
                <td>{tasks.get(run.task_id)?.name ?? run.task_id}</td>
                <td>
                  {STATUS_WORDS[run.status] ?? run.status}
                  {run.error ? <div class="why">{run.error}</div> : null}
                  {run.status === "input-required" && run.confirmation ? (
                    <div class="waiting">
                      <p>{run.confirmation.question}</p>
                      <p>Until {new Date(run.confirmation.expires_at).toLocaleString()}</p>
                      <button type="button" onClick={() => void decide(run, "approve")}>
                        Approve
                      </button>{" "}
                      <button type="button" onClick={() => void decide(run, "decline")}>
                        Decline
                      </button>
                    </div>
                  ) : null}
                  {run.confirmation?.decided_by ? (
                    <div class="why">
                      {run.confirmation.decision === "approve" ? "Approved" : "Declined"} by{" "}
                      {run.confirmation.decided_by}
                    </div>
                  ) : null}
                </td>
                <td>{new Date(run.received_at).toLocaleString()}</td>
                <td>{run.finished_at ? took(run.received_at, run.finished_at) : ""}</td>
                <td>{run.spend ? `${run.spend.model_calls} model calls, ${run.spend.tokens} tokens` : ""}</td>
                <td>
                  <code>{run.trace_id}</code>
                </td>
                <td>{run.thread ? `${run.thread.channel} ${run.thread.ts}` : ""}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}

function took(from: string, to: string): string {
  const seconds = (Date.parse(to) - Date.parse(from)) / 1000;
  return seconds < 60 ? `${seconds.toFixed(1)} s` : `${Math.round(seconds / 60)} min`;
}
