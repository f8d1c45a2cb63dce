import { SUBAGENT_FIELDS, type SubagentDraft } from "./agent-draft.js";
import { agentIdOf, type ConfiguredAgent } from "./agents-api.js";

/** One subagent: its name and what to ask it for, and which agent (another configured one, or any A2A agent by URL). */
export function SubagentRow({
  index,
  sub,
  agents,
  errors,
  onChange,
  onRemove,
}: {
  index: number;
  sub: SubagentDraft;
  agents: ConfiguredAgent[];
  /** The form's errors: this row's are `subagents.<index>` and `subagents.<index>.<field>`. */
  errors: Record<string, string>;
  onChange(sub: SubagentDraft): void;
  onRemove(): void;
}) {
  const base = `subagent-${index}`;
  const rowError = errors[`subagents.${index}`];
  const errorOf = (field: string) => errors[`subagents.${index}.${field}`];
  /** A control's id, and the attributes tying it to its error (the row's goes to the first control). */
  const control = (field: string, id: string) => {
    const own = errorOf(field);
    const described = [own ? `${id}-error` : "", field === "name" && rowError ? `${base}-error` : ""]
      .filter(Boolean)
      .join(" ");
    return {
      id,
      "aria-invalid": own || (field === "name" && rowError) ? ("true" as const) : ("false" as const),
      ...(described ? { "aria-describedby": described } : {}),
    };
  };
  const said = (field: string, id: string) =>
    errorOf(field) ? (
      <p class="error" id={`${id}-error`}>
        {errorOf(field)}
      </p>
    ) : null;
  const set = (change: Partial<SubagentDraft>) => onChange({ ...sub, ...change });
  const known = agents.some((agent) => agentIdOf(agent) === sub.agentId);
  const invalid = rowError || SUBAGENT_FIELDS.some((field) => errorOf(field));
  return (
    <fieldset class={`subagent${invalid ? " invalid" : ""}`}>
      <legend>Subagent {index + 1}</legend>
      {rowError ? (
        <p class="error" id={`${base}-error`}>
          {rowError}
        </p>
      ) : null}
      <div class="field">
        <label for={`${base}-name`}>Name</label>
        <input
          {...control("name", `${base}-name`)}
          value={sub.name}
          onInput={(event) => set({ name: (event.target as HTMLInputElement).value })}
        />
        {said("name", `${base}-name`)}
      </div>
      <div class="field">
        <label for={`${base}-description`}>What to ask it for</label>
        <input
          {...control("description", `${base}-description`)}
          value={sub.description}
          onInput={(event) => set({ description: (event.target as HTMLInputElement).value })}
        />
        {said("description", `${base}-description`)}
      </div>
      <div class="field">
        <label for={`${base}-kind`}>Which agent</label>
        <select
          {...control("agent_id", `${base}-kind`)}
          value={sub.kind === "url" ? "url" : `agent:${sub.agentId}`}
          onChange={(event) => {
            const value = (event.target as HTMLSelectElement).value;
            set(value === "url" ? { kind: "url" } : { kind: "agent", agentId: value.slice("agent:".length) });
          }}
        >
          {sub.kind === "agent" && !known ? (
            <option value={`agent:${sub.agentId}`}>
              {sub.agentId ? `${sub.agentId} (not listed)` : "Choose an agent"}
            </option>
          ) : null}
          {agents.map((agent) => (
            <option key={agentIdOf(agent)} value={`agent:${agentIdOf(agent)}`}>
              {agent.name} ({agentIdOf(agent)})
            </option>
          ))}
          <option value="url">Another A2A agent, by URL</option>
        </select>
        {said("agent_id", `${base}-kind`)}
      </div>
      {sub.kind === "url" ? (
        <div class="field">
          <label for={`${base}-url`}>Its URL</label>
          <input
            {...control("url", `${base}-url`)}
            type="url"
            value={sub.url}
            spellcheck={false}
            onInput={(event) => set({ url: (event.target as HTMLInputElement).value })}
          />
          {said("url", `${base}-url`)}
        </div>
      ) : null}
      <button type="button" class="secondary" onClick={onRemove}>
        Remove subagent {index + 1}
      </button>
    </fieldset>
  );
}
