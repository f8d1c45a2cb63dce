import { useCallback, useEffect, useMemo, useState } from "preact/hooks";
import { type Datasource, KnowledgeApi, KnowledgeOff, type SyncProgress } from "./knowledge-api.js";

/** While a source syncs, the list is read again this often, so its progress moves on the page. */
const RUNNING_POLL_MS = 2_000;

/**
 * The knowledge base's sources the user may read: each one's type, last sync and last success, the
 * error of its last sync, how many documents it holds, and a sync in progress; for the source's admins
 * "Sync now" (an upload source: a file to add). The RAG server decides again who may: a refusal is shown.
 */
export function SourcesPage({
  token,
  fail,
}: {
  token: () => string | undefined;
  fail(error: unknown): string;
}) {
  const api = useMemo(() => new KnowledgeApi(token), [token]);
  const [sources, setSources] = useState<Datasource[]>();
  const [off, setOff] = useState<string>();
  const [problem, setProblem] = useState<string>();
  const [notice, setNotice] = useState<string>();

  const load = useCallback(() => {
    api.datasources().then(
      (list) => {
        setSources(list);
        setOff(undefined);
      },
      (error: unknown) => (error instanceof KnowledgeOff ? setOff(error.message) : setProblem(fail(error))),
    );
  }, [api, fail]);
  useEffect(load, [load]);
  const running = sources?.some((source) => source.running) ?? false;
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(load, RUNNING_POLL_MS);
    return () => clearInterval(timer);
  }, [running, load]);

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
    <section aria-labelledby="sources-heading" class="knowledge-sources">
      <h2 id="sources-heading">Sources</h2>
      <p class="muted">
        The documents the knowledge base answers from, as far as you may read them, and how their last sync
        went.
      </p>
      {off ? <p class="muted">{off}</p> : null}
      {problem ? (
        <p class="error" role="alert">
          {problem}
        </p>
      ) : null}
      {notice ? <output class="notice">{notice}</output> : null}
      {sources === undefined && !off && !problem ? <p class="muted">Loading…</p> : null}
      {sources && sources.length === 0 ? <p class="muted">There is no source you may read.</p> : null}
      {sources?.length ? (
        <div class="table-scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Type</th>
                <th scope="col">Last sync</th>
                <th scope="col">Last success</th>
                <th scope="col">Error</th>
                <th scope="col">Documents</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {sources.map((source) => (
                <SourceRow
                  key={source.datasource_id}
                  source={source}
                  onSync={() =>
                    void act(
                      () => api.sync(source.datasource_id),
                      `${source.name || source.datasource_id}: sync started.`,
                    )
                  }
                  onUpload={(file) =>
                    void act(
                      () => api.upload(source.datasource_id, file),
                      `${file.name} was added to ${source.name || source.datasource_id}.`,
                    )
                  }
                />
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}

function SourceRow({
  source,
  onSync,
  onUpload,
}: {
  source: Datasource;
  onSync(): void;
  onUpload(file: File): void;
}) {
  const name = source.name || source.datasource_id;
  return (
    <tr data-source={source.datasource_id}>
      <th scope="row">
        {name}
        {source.name && source.name !== source.datasource_id ? (
          <span class="muted"> ({source.datasource_id})</span>
        ) : null}
      </th>
      <td>{source.source_type}</td>
      <td>{source.running ? progressText(source.progress) : when(source.last_sync)}</td>
      <td>{when(source.last_success)}</td>
      <td class={source.last_error ? "error" : undefined}>{source.last_error ?? ""}</td>
      <td>
        {source.documents}{" "}
        <span class="muted">
          ({source.chunks} chunk{source.chunks === 1 ? "" : "s"})
        </span>
      </td>
      <td>
        <div class="source-actions">
          {source.can_sync !== false && source.source_type !== "upload" ? (
            <button type="button" disabled={source.running} onClick={onSync} aria-label={`Sync ${name} now`}>
              Sync now
            </button>
          ) : null}
          {source.can_sync !== false && source.source_type === "upload" ? (
            <label>
              <span class="visually-hidden">Add a file to {name}</span>
              <input
                type="file"
                accept=".md,.markdown,.txt,.html,.htm,.pdf,text/markdown,text/plain,text/html,application/pdf"
                onChange={(event) => {
                  const input = event.currentTarget;
                  const file = input.files?.[0];
                  if (file) onUpload(file);
                  input.value = "";
                }}
              />
            </label>
          ) : null}
        </div>
      </td>
    </tr>
  );
}

function when(at: string | null): string {
  if (!at) return "never";
  const date = new Date(at);
  return Number.isNaN(date.getTime()) ? at : date.toLocaleString();
}

/** A running sync's step, in words: "Syncing: embedding (3 changed of 40 listed)". */
export function progressText(progress: SyncProgress | null | undefined): string {
  if (!progress) return "Syncing…";
  const counts = [
    `${progress.changed} changed`,
    `${progress.unchanged} unchanged`,
    progress.removed ? `${progress.removed} removed` : "",
    progress.failed ? `${progress.failed} failed` : "",
  ].filter(Boolean);
  return `Syncing: ${progress.phase} (${counts.join(", ")} of ${progress.listed} listed)`;
}
