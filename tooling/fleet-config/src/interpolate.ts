/**
 * Compose-file interpolation as the Compose Specification defines it: `$$` escapes, `$VAR`,
 * `${VAR}`, `${VAR:-default}` / `${VAR-default}`, `${VAR:+replacement}` / `${VAR+replacement}`,
 * `${VAR:?error}` / `${VAR?error}`, with nesting inside defaults and replacements.
 */
export function interpolate(text: string, env: Readonly<Record<string, string | undefined>>): string {
  let out = "";
  let i = 0;
  while (i < text.length) {
    const char = text[i];
    if (char !== "$") {
      out += char;
      i += 1;
      continue;
    }
    const next = text[i + 1];
    if (next === "$") {
      out += "$";
      i += 2;
    } else if (next === "{") {
      const end = closingBrace(text, i + 2);
      out += expand(text.slice(i + 2, end), env);
      i = end + 1;
    } else {
      const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i + 1))?.[0];
      out += name ? (env[name] ?? "") : "$";
      i += 1 + (name?.length ?? 0);
    }
  }
  return out;
}

function closingBrace(text: string, from: number): number {
  let depth = 1;
  for (let i = from; i < text.length; i += 1) {
    if (text[i] === "$" && text[i + 1] === "{") {
      depth += 1;
      i += 1;
    } else if (text[i] === "}") {
      depth -= 1;
      if (depth === 0) return i;
    }
  }
  throw new Error(`Unclosed \${ in "${text}"`);
}

function expand(body: string, env: Readonly<Record<string, string | undefined>>): string {
  const match = /^([A-Za-z_][A-Za-z0-9_]*)(?:(:?)([-+?])([\s\S]*))?$/.exec(body);
  if (!match?.[1]) throw new Error(`Invalid interpolation \${${body}}`);
  const [, name, colon, operator, rest = ""] = match;
  const value = env[name];
  const set = colon ? Boolean(value) : value !== undefined;
  if (operator === "-") return set ? (value ?? "") : interpolate(rest, env);
  if (operator === "+") return set ? interpolate(rest, env) : "";
  if (operator === "?" && !set) throw new Error(`${name}: ${interpolate(rest, env) || "required"}`);
  return value ?? "";
}

/** Every variable name a text interpolates, nested ones included. */
export function interpolatedNames(text: string): string[] {
  const unescaped = text.replaceAll("$$", "");
  const names = [...unescaped.matchAll(/\$\{?([A-Za-z_][A-Za-z0-9_]*)/g)].map((match) => match[1] ?? "");
  return [...new Set(names)].sort();
}
