import { useCallback, useEffect, useMemo, useState } from "preact/hooks";
import { bodyOf, draftOf } from "./agent-draft.js";
import { AgentForm, type Catalog } from "./agent-form.js";
import { AgentsApi, AgentsApiError, agentIdOf, type ConfiguredAgent, refusalOf } from "./agents-api.js";

type Editing = { agent: ConfiguredAgent | undefined; catalog: Catalog } | undefined;

/**
 * Agents made from configuration (CAIPE's dynamic agents), through the dynamic-agents host's API:
 * listed, created, edited and deleted here; those from the configuration file shown read-only.
 * Whether the caller may configure is the host's decision: a refusal is shown in its words.
 */
export function ConfiguredAgentsPage({
  token,
  fail,
}: {
  token: () => string | undefined;
  fail(error: unknown): string;
}) {
  const api = useMemo(() => new AgentsApi(token), [token]);
  const [agents, setAgents] = useState<ConfiguredAgent[]>();
  const [off, setOff] = useState<string>();
  const [problem, setProblem] = useState<string>();
  const [notice, setNotice] = useState<string>();
  const [editing, setEditing] = useState<Editing>();
  const [opening, setOpening] = useState(false);

  /** An error in words: a refusal says the user may not configure agents. */
  const say = useCallback(
    (error: unknown): string => {
      if (error instanceof AgentsApiError && error.status === 403) return refusalOf(error);
      return fail(error);
    },
    [fail],
  );

  const reload = useCallback(() => {
    api.agents().then(
      (list) => {
        setAgents(list);
        setOff(undefined);
      },
      (error: unknown) => {
        if (error instanceof AgentsApiError && error.off) setOff(error.message);
        else setProblem(say(error));
      },
    );
  }, [api, say]);
  useEffect(reload, [reload]);

  /** Opens the form: the host's models and tool servers are read first (a refusal stops here). */
  const open = async (agent: ConfiguredAgent | undefined) => {
    setProblem(undefined);
    setNotice(undefined);
    setOpening(true);
    try {
      const readOnly = agent?.config_driven === true;
      // A read-only view needs no catalog: what the file says is shown as it is.
      const [models, servers] = readOnly ? [[], []] : await Promise.all([api.models(), api.toolServers()]);
      setEditing({ agent, catalog: { models, servers, agents: agents ?? [] } });
    } catch (error) {
      setProblem(say(error));
    } finally {
      setOpening(false);
    }
  };

  const close = (done?: string) => {
    setEditing(undefined);
    if (done) setNotice(done);
    reload();
  };

  const remove = async (agent: ConfiguredAgent) => {
    if (!confirm(`Delete the agent "${agent.name}"? Its conversations stay, but it is no longer served.`))
      return;
    setProblem(undefined);
    setNotice(undefined);
    try {
      await api.remove(agentIdOf(agent));
      setNotice(`The agent ${agent.name} is deleted.`);
    } catch (error) {
      setProblem(say(error));
    }
    reload();
  };

  if (editing) {
    const { agent } = editing;
    return (
      <section aria-label="Configure an agent" class="configured-agents">
        <AgentForm
          agent={agent}
          initial={draftOf(agent)}
          catalog={editing.catalog}
          readOnly={agent?.config_driven === true}
          fail={fail}
          onCancel={() => close()}
          onSave={async (draft) => {
            if (agent) {
              const { id: _id, ...changes } = bodyOf(draft, agent);
              await api.update(agentIdOf(agent), changes);
              close(`The agent ${draft.name} is saved.`);
            } else {
              await api.create(bodyOf(draft));
              close(`The agent ${draft.name} is created.`);
            }
          }}
        />
      </section>
    );
  }

  return (
    <section aria-labelledby="configured-heading" class="configured-agents">
      <h2 id="configured-heading">Configure agents</h2>
      <p class="muted">
        Agents made from a prompt, a model, tools and subagents, served by the dynamic-agents host and joined
        to the supervisor's roster as soon as they are saved.
      </p>
      {off ? (
        <p class="notice-box" role="status">
          {off}
        </p>
      ) : null}
      {problem ? (
        <p class="error" role="alert">
          {problem}
        </p>
      ) : null}
      {notice ? <output class="notice">{notice}</output> : null}
      {off ? null : (
        <>
          <p>
            <button type="button" class="primary" disabled={opening} onClick={() => void open(undefined)}>
              New agent
            </button>
          </p>
          {agents === undefined && !problem ? <p class="muted">Loading…</p> : null}
          {agents && agents.length === 0 ? <p class="muted">No agent is configured yet.</p> : null}
          <ul class="agent-config-list">
            {agents?.map((agent) => (
              <AgentItem
                key={agentIdOf(agent)}
                agent={agent}
                busy={opening}
                onOpen={() => void open(agent)}
                onDelete={() => void remove(agent)}
              />
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

function AgentItem({
  agent,
  busy,
  onOpen,
  onDelete,
}: {
  agent: ConfiguredAgent;
  busy: boolean;
  onOpen(): void;
  onDelete(): void;
}) {
  const fromFile = agent.config_driven === true;
  const id = agentIdOf(agent);
  const tools = Object.entries(agent.allowed_tools ?? {}).filter(([, allowed]) => allowed !== false);
  return (
    <li data-agent-id={id}>
      <div class="agent-line">
        <span class="agent-name">{agent.name}</span>
        <code class="muted">{id}</code>
        <span class={`status status-${agent.enabled === false ? "down" : "up"}`}>
          {agent.enabled === false ? "disabled" : "enabled"}
        </span>
        <span class="source">{fromFile ? "from the configuration file" : "made here"}</span>
      </div>
      {agent.description ? <p class="description">{agent.description}</p> : null}
      {agent.problems?.length ? (
        <div class="error agent-problems">
          <p>The host cannot take this agent as saved (it keeps the last good one):</p>
          <ul>
            {agent.problems.map((problem) => (
              <li key={`${problem.field}:${problem.message}`}>
                <code>{problem.field}</code>: {problem.message}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <p class="muted">
        {agent.model ? `${agent.model.id} (${agent.model.provider})` : "no model"}
        {tools.length > 0 ? ` · tools from ${tools.map(([server]) => server).join(", ")}` : ""}
        {agent.subagents?.length
          ? ` · delegates to ${agent.subagents.map((sub) => sub.name).join(", ")}`
          : ""}
      </p>
      <p class="item-actions">
        <button type="button" disabled={busy} onClick={onOpen}>
          {fromFile ? "View" : "Edit"}
          <span class="visually-hidden"> {agent.name}</span>
        </button>
        {fromFile || agent.is_system ? null : (
          <button type="button" class="danger" onClick={onDelete}>
            Delete<span class="visually-hidden"> {agent.name}</span>
          </button>
        )}
      </p>
    </li>
  );
}
