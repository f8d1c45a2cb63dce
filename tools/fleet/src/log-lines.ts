const LEVEL_NAMES: Record<string, string> = {
  "10": "trace",
  "20": "debug",
  "30": "info",
  "40": "warn",
  "50": "error",
  "60": "fatal",
};
const SKIPPED = new Set(["level", "time", "msg", "agent", "pid", "hostname"]);

/**
 * One agent log line for a person: `[jira] 12:00:01 info  jira agent ready url=…`. JSON lines from
 * the runtime's logger are unpacked; anything else is shown as it came.
 */
export function formatLine(agent: string, line: string, width: number): string {
  const prefix = `[${agent}]`.padEnd(width + 2);
  if (!line.startsWith("{")) return `${prefix} ${line}`;
  try {
    const entry = JSON.parse(line) as Record<string, unknown>;
    const level = LEVEL_NAMES[String(entry.level)] ?? String(entry.level ?? "");
    const time = typeof entry.time === "string" ? entry.time.slice(11, 19) : "";
    const fields = Object.entries(entry)
      .filter(([key]) => !SKIPPED.has(key))
      .map(([key, value]) => `${key}=${typeof value === "string" ? value : JSON.stringify(value)}`)
      .join(" ");
    return `${prefix} ${time} ${level.padEnd(5)} ${String(entry.msg ?? "")}${fields ? ` ${fields}` : ""}`;
  } catch {
    return `${prefix} ${line}`;
  }
}
