/**
 * Variables documented in .env.example ahead of the code that reads them (e.g. while an issue is
 * under way). The check tolerates these being unread; delete each once the code reads it.
 */
export const DOCUMENTED_AHEAD: readonly string[] = [];
