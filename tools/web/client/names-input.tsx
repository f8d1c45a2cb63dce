import { useState } from "preact/hooks";
import { namesOf } from "./agent-draft.js";

/** A list of names typed with commas; kept as typed, the names passed on as they change. */
export function NamesInput({
  id,
  label,
  names,
  onChange,
  ...attributes
}: {
  id: string;
  /** Shown above it; none when a Field around it labels it. */
  label?: string;
  names: string[];
  onChange(names: string[]): void;
  "aria-invalid"?: "true" | "false";
  "aria-describedby"?: string;
}) {
  const [text, setText] = useState(names.join(", "));
  const input = (
    <input
      id={id}
      value={text}
      spellcheck={false}
      {...attributes}
      onInput={(event) => {
        const value = (event.target as HTMLInputElement).value;
        setText(value);
        onChange(namesOf(value));
      }}
    />
  );
  if (!label) return input;
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {input}
    </div>
  );
}
