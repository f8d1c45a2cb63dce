/** The path of the description's first server, its variables at their defaults ("" for none or "/"). */
export function apiRootOf(document: Record<string, unknown>): string {
  const server = (
    (document.servers ?? []) as Array<{ url?: string; variables?: Record<string, { default?: string }> }>
  )[0];
  let url = server?.url ?? "/";
  for (const [name, variable] of Object.entries(server?.variables ?? {}))
    url = url.replaceAll(`{${name}}`, variable.default ?? "");
  return new URL(url, "http://server.invalid").pathname.replace(/\/+$/, "");
}
