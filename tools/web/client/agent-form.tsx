import type { ComponentChildren } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import {
  type AgentDraft,
  draftProblems,
  modelChoices,
  placeErrors,
  SUBAGENT_FIELDS,
  type SubagentDraft,
  serverChoices,
  slugOf,
} from "./agent-draft.js";
import {
  AgentsApiError,
  agentIdOf,
  type ConfiguredAgent,
  type LlmModel,
  refusalOf,
  type ToolServer,
} from "./agents-api.js";
import { NamesInput } from "./names-input.js";
import { SubagentRow } from "./subagent-row.js";
import { ServerChoice } from "./tool-server-choice.js";

export interface Catalog {
  models: LlmModel[];
  servers: ToolServer[];
  /** The other configured agents, which may be subagents. */
  agents: ConfiguredAgent[];
}

interface AgentFormProps {
  /** The agent as it is; undefined for a new one. */
  agent: ConfiguredAgent | undefined;
  initial: AgentDraft;
  catalog: Catalog;
  /** Shown, not editable: an agent from the configuration file. */
  readOnly: boolean;
  onSave(draft: AgentDraft): Promise<void>;
  onCancel(): void;
  /** Words an error that is not the API's (an expired sign-in, the network). */
  fail(error: unknown): string;
}

const EMPTY_SUBAGENT: SubagentDraft = { name: "", description: "", kind: "agent", agentId: "", url: "" };

/**
 * One configured agent's form: CAIPE's fields (id, name, description, prompt, model, tools and the
 * ones that ask first, subagents, visibility, enabled). An error the API names a field for is shown
 * beside that field. Everything shown comes from the API and is text: Preact escapes it.
 */
export function AgentForm({ agent, initial, catalog, readOnly, onSave, onCancel, fail }: AgentFormProps) {
  const [draft, setDraft] = useState(initial);
  const [idTouched, setIdTouched] = useState(agent !== undefined);
  const [saving, setSaving] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<{
    message: string;
    other: Array<{ field: string; message: string }>;
  }>();
  const form = useRef<HTMLFormElement>(null);

  useEffect(() => {
    form.current?.querySelector<HTMLElement>("h3")?.focus();
  }, []);
  // After a refusal, the first field it names (or the refusal itself) takes the focus.
  useEffect(() => {
    if (!problem && Object.keys(errors).length === 0) return;
    const target =
      form.current?.querySelector<HTMLElement>('[aria-invalid="true"]') ??
      form.current?.querySelector<HTMLElement>(".form-problem");
    target?.focus();
  }, [errors, problem]);

  const set = (change: Partial<AgentDraft>) => setDraft((before) => ({ ...before, ...change }));
  const servers = serverChoices(catalog.servers, draft);
  const shown = new Set([
    "id",
    "name",
    "description",
    "system_prompt",
    "model",
    "visibility",
    "owner_team_slug",
    "shared_with_teams",
    "enabled",
    "subagents",
    ...servers.map((server) => `tools.${server.id}`),
    ...draft.subagents.flatMap((_, index) => [
      `subagents.${index}`,
      ...SUBAGENT_FIELDS.map((field) => `subagents.${index}.${field}`),
    ]),
  ]);

  const submit = async (event: Event) => {
    event.preventDefault();
    if (readOnly) return;
    const own = draftProblems(draft);
    if (Object.keys(own).length > 0) {
      setErrors(own);
      setProblem({ message: "Nothing was saved: see the fields marked below.", other: [] });
      return;
    }
    setSaving(true);
    setErrors({});
    setProblem(undefined);
    try {
      await onSave(draft);
    } catch (error) {
      if (error instanceof AgentsApiError) {
        const { byField, other } = placeErrors(error.fields, shown);
        setErrors(byField);
        const refused = error.status === 403 ? refusalOf(error) : error.message;
        setProblem({ message: refused, other });
      } else {
        setProblem({ message: fail(error), other: [] });
      }
    } finally {
      setSaving(false);
    }
  };

  /** The attributes tying a control to its error. */
  const invalid = (field: string, id: string) =>
    errors[field]
      ? { "aria-invalid": "true" as const, "aria-describedby": `${id}-error` }
      : { "aria-invalid": "false" as const };

  const title = agent ? `${readOnly ? "" : "Edit "}${agent.name}` : "New agent";
  return (
    <form class="agent-form" ref={form} onSubmit={(event) => void submit(event)} noValidate>
      <h3 tabIndex={-1}>{title}</h3>
      {readOnly ? (
        <p class="notice-box">
          This agent comes from the configuration file (APP_CONFIG_FILE) and is shown as it is there: change
          it in the file.
        </p>
      ) : null}
      {problem ? (
        <div class="error form-problem" role="alert" tabIndex={-1}>
          <p>{problem.message}</p>
          {problem.other.length > 0 ? (
            <ul>
              {problem.other.map((entry) => (
                <li key={entry.field}>
                  <code>{entry.field}</code>: {entry.message}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
      <fieldset class="plain" disabled={readOnly || saving}>
        <Field id="agent-name" label="Name" error={errors.name}>
          <input
            id="agent-name"
            value={draft.name}
            required
            {...invalid("name", "agent-name")}
            onInput={(event) => {
              const name = (event.target as HTMLInputElement).value;
              set(idTouched ? { name } : { name, id: slugOf(name) });
            }}
          />
        </Field>
        <Field
          id="agent-id"
          label="Id"
          hint={
            agent ? "An agent's id does not change." : "Lower-case letters, digits and dashes; its address."
          }
          error={errors.id}
        >
          <input
            id="agent-id"
            value={draft.id}
            readOnly={agent !== undefined}
            required
            spellcheck={false}
            {...invalid("id", "agent-id")}
            onInput={(event) => {
              setIdTouched(true);
              set({ id: (event.target as HTMLInputElement).value });
            }}
          />
        </Field>
        <Field
          id="agent-description"
          label="Description"
          hint="What it does: the supervisor routes by it."
          error={errors.description}
        >
          <input
            id="agent-description"
            value={draft.description}
            {...invalid("description", "agent-description")}
            onInput={(event) => set({ description: (event.target as HTMLInputElement).value })}
          />
        </Field>
        <Field id="agent-prompt" label="System prompt" error={errors.system_prompt}>
          <textarea
            id="agent-prompt"
            rows={8}
            value={draft.systemPrompt}
            required
            {...invalid("system_prompt", "agent-prompt")}
            onInput={(event) => set({ systemPrompt: (event.target as HTMLTextAreaElement).value })}
          />
        </Field>
        <Field id="agent-model" label="Model" error={errors.model}>
          <select
            id="agent-model"
            value={draft.model}
            required
            {...invalid("model", "agent-model")}
            onChange={(event) => set({ model: (event.target as HTMLSelectElement).value })}
          >
            <option value="">Choose a model</option>
            {modelChoices(catalog.models, draft).map((choice) => (
              <option key={choice.key} value={choice.key}>
                {choice.label}
              </option>
            ))}
          </select>
        </Field>
        <fieldset class="tool-servers">
          <legend>Tools</legend>
          {servers.length === 0 ? <p class="muted">The host offers no tool servers.</p> : null}
          {servers.map((server, index) => (
            <ServerChoice
              key={server.id}
              index={index}
              server={server}
              use={draft.tools[server.id] ?? { mode: "off", only: [], askFirst: [] }}
              error={errors[`tools.${server.id}`]}
              onChange={(use) => set({ tools: { ...draft.tools, [server.id]: use } })}
            />
          ))}
        </fieldset>
        <fieldset class="subagents">
          <legend>Subagents</legend>
          <p class="muted">
            Agents this one may delegate to: another configured agent, or any A2A agent by its URL.
          </p>
          {errors.subagents ? (
            <p class="error" id="subagents-error">
              {errors.subagents}
            </p>
          ) : null}
          {draft.subagents.map((sub, index) => (
            <SubagentRow
              // Rows have no identity of their own (and no state): their place is their key.
              key={index}
              index={index}
              sub={sub}
              agents={catalog.agents.filter((other) => agentIdOf(other) !== draft.id)}
              errors={errors}
              onChange={(next) =>
                set({ subagents: draft.subagents.map((each, at) => (at === index ? next : each)) })
              }
              onRemove={() => set({ subagents: draft.subagents.filter((_, at) => at !== index) })}
            />
          ))}
          {readOnly ? null : (
            <button
              type="button"
              onClick={() => set({ subagents: [...draft.subagents, { ...EMPTY_SUBAGENT }] })}
            >
              Add a subagent
            </button>
          )}
        </fieldset>
        <Field id="agent-visibility" label="Who may use it" error={errors.visibility}>
          <select
            id="agent-visibility"
            value={draft.visibility}
            {...invalid("visibility", "agent-visibility")}
            onChange={(event) =>
              set({ visibility: (event.target as HTMLSelectElement).value as AgentDraft["visibility"] })
            }
          >
            <option value="team">Its teams</option>
            <option value="global">Everyone</option>
          </select>
        </Field>
        <Field
          id="agent-owner-team"
          label="Owning team"
          hint="Its admins manage it; its members use it."
          error={errors.owner_team_slug}
        >
          <input
            id="agent-owner-team"
            value={draft.ownerTeam}
            spellcheck={false}
            {...invalid("owner_team_slug", "agent-owner-team")}
            onInput={(event) => set({ ownerTeam: (event.target as HTMLInputElement).value })}
          />
        </Field>
        <Field
          id="agent-shared-teams"
          label="Also used by the teams"
          hint="Comma-separated; for an agent its teams use."
          error={errors.shared_with_teams}
        >
          <NamesInput
            id="agent-shared-teams"
            names={draft.sharedWithTeams}
            onChange={(sharedWithTeams) => set({ sharedWithTeams })}
            {...invalid("shared_with_teams", "agent-shared-teams")}
          />
        </Field>
        <div class="check">
          <input
            id="agent-enabled"
            type="checkbox"
            checked={draft.enabled}
            {...invalid("enabled", "agent-enabled")}
            onChange={(event) => set({ enabled: (event.target as HTMLInputElement).checked })}
          />
          <label for="agent-enabled">Enabled (served and on the supervisor's roster)</label>
          {errors.enabled ? (
            <p class="error" id="agent-enabled-error">
              {errors.enabled}
            </p>
          ) : null}
        </div>
      </fieldset>
      <p class="form-actions">
        {readOnly ? null : (
          <button type="submit" class="primary" disabled={saving}>
            {saving ? "Saving…" : agent ? "Save changes" : "Create agent"}
          </button>
        )}{" "}
        <button type="button" onClick={onCancel}>
          {readOnly ? "Back to the list" : "Cancel"}
        </button>
      </p>
    </form>
  );
}

function Field({
  id,
  label,
  hint,
  error,
  children,
}: {
  id: string;
  label: string;
  hint?: string;
  error: string | undefined;
  children: ComponentChildren;
}) {
  return (
    <div class="field">
      <label for={id}>
        {label}
        {hint ? <span class="muted hint"> {hint}</span> : null}
      </label>
      {children}
      {error ? (
        <p class="error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
