// biome-ignore-all lint/suspicious/noTemplateCurlyInString: CAIPE's file refers to variables as ${VAR}, on purpose.

/** `${VAR}` or `${VAR:-default}`, as CAIPE's seed loader reads them. */
const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

export interface Expanded<T> {
  value: T;
  /** Paths (`agents[0].system_prompt`) and the variables unset there with no default (left empty). */
  missing: Array<{ path: string; variable: string }>;
}

/**
 * Fills in `${VAR}` and `${VAR:-default}` in every string of `value` (CAIPE expands the file's agents,
 * servers and workflows this way in docker-compose; Helm resolves them before the file is mounted).
 * A blank variable counts as unset, as everywhere in the fleet; an unset one without a default
 * becomes the empty string, as in CAIPE, and is reported.
 */
export function expandVariables<T>(value: T, env: NodeJS.ProcessEnv, path: string): Expanded<T> {
  const missing: Expanded<T>["missing"] = [];
  const visit = (item: unknown, at: string): unknown => {
    if (typeof item === "string") {
      return item.replace(REFERENCE, (_whole, name: string, fallback: string | undefined) => {
        const set = env[name];
        if (set !== undefined && set.trim() !== "") return set;
        if (fallback !== undefined) return fallback;
        missing.push({ path: at, variable: name });
        return "";
      });
    }
    if (Array.isArray(item)) return item.map((one, index) => visit(one, `${at}[${index}]`));
    if (item !== null && typeof item === "object") {
      return Object.fromEntries(
        Object.entries(item).map(([key, one]) => [key, visit(one, fieldPath(at, key))]),
      );
    }
    return item;
  };
  return { value: visit(value, path) as T, missing };
}

/** Whether a string anywhere in `value` refers to a variable. */
export function refersToVariables(value: unknown): boolean {
  if (typeof value === "string") return new RegExp(REFERENCE.source).test(value);
  if (Array.isArray(value)) return value.some(refersToVariables);
  if (value !== null && typeof value === "object") return Object.values(value).some(refersToVariables);
  return false;
}

/** `agents[2]` + `allowed_tools` → `agents[2].allowed_tools`; odd keys quoted: `env["A B"]`. */
export function fieldPath(base: string, key: string | number): string {
  if (typeof key === "number") return `${base}[${key}]`;
  const plain = /^[A-Za-z_][A-Za-z0-9_-]*$/.test(key);
  const part = plain ? key : `[${JSON.stringify(key.slice(0, 80))}]`;
  if (!base) return part;
  return plain ? `${base}.${part}` : `${base}${part}`;
}
