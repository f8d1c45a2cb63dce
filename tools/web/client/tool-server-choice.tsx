import type { ServerUse } from "./agent-draft.js";
import type { ToolServer } from "./agents-api.js";
import { NamesInput } from "./names-input.js";

/** One tool server: not used, all its tools, or some (picked when listed, typed when not); and which ask first. */
export function ServerChoice({
  index,
  server,
  use,
  error,
  onChange,
}: {
  index: number;
  server: ToolServer;
  use: ServerUse;
  error: string | undefined;
  onChange(use: ServerUse): void;
}) {
  const base = `server-${index}`;
  const describedBy = error ? `${base}-error` : undefined;
  const modes: Array<[ServerUse["mode"], string]> = [
    ["off", "Not used"],
    ["all", "All its tools"],
    ["some", "Only these tools"],
  ];
  return (
    <fieldset
      class={`tool-server${error ? " invalid" : ""}`}
      data-server={server.id}
      aria-describedby={describedBy}
    >
      <legend>
        {server.name}
        {server.name !== server.id ? <span class="muted"> ({server.id})</span> : null}
        {server.enabled ? null : <span class="muted"> · disabled</span>}
      </legend>
      {server.description ? <p class="muted">{server.description}</p> : null}
      {error ? (
        <p class="error" id={`${base}-error`}>
          {error}
        </p>
      ) : null}
      <div class="modes">
        {modes.map(([mode, label], at) => (
          <label key={mode}>
            <input
              type="radio"
              name={base}
              value={mode}
              checked={use.mode === mode}
              // The group's first radio carries the error, so focus after a refusal lands here.
              {...(error && at === 0 ? { "aria-invalid": "true" as const } : {})}
              onChange={() => onChange({ ...use, mode })}
            />{" "}
            {label}
          </label>
        ))}
      </div>
      {use.mode === "some" ? (
        server.tools ? (
          <ul class="tool-picks">
            {server.tools.map((tool) => (
              <li key={tool.name}>
                <label>
                  <input
                    type="checkbox"
                    checked={use.only.includes(tool.name)}
                    onChange={(event) =>
                      onChange({
                        ...use,
                        only: (event.target as HTMLInputElement).checked
                          ? [...use.only, tool.name]
                          : use.only.filter((name) => name !== tool.name),
                      })
                    }
                  />{" "}
                  <code>{tool.name}</code>
                  {tool.description ? <span class="muted"> {tool.description}</span> : null}
                </label>
              </li>
            ))}
          </ul>
        ) : (
          <NamesInput
            id={`${base}-only`}
            label="Tool names (the host does not list them)"
            names={use.only}
            onChange={(only) => onChange({ ...use, only })}
          />
        )
      ) : null}
      {use.mode === "off" ? null : (
        <NamesInput
          id={`${base}-ask`}
          label="Ask the user first before (tool names, * for all)"
          names={use.askFirst}
          onChange={(askFirst) => onChange({ ...use, askFirst })}
        />
      )}
    </fieldset>
  );
}
