import { useMemo } from "preact/hooks";
import { AccountApi } from "./account-api.js";
import { AuditPage } from "./audit-page.js";
import { ConfiguredAgentsPage } from "./configured-agents.js";
import { LinkedTokensPage } from "./linked-tokens.js";
import { MemoriesPage } from "./memories-page.js";
import { SourcesPage } from "./sources-page.js";
import { TriggersPage } from "./triggers-page.js";
import "./side-pages.css";

/** Pages beside the chat, each at its own address. */
export const SIDE_PAGES = [
  { path: "/linked-tokens", title: "Linked tokens" },
  { path: "/audit", title: "Audit" },
  { path: "/memories", title: "Memories" },
  { path: "/configured-agents", title: "Configure agents" },
  { path: "/triggers", title: "Triggered runs" },
  { path: "/sources", title: "Sources" },
] as const;

export type SidePath = (typeof SIDE_PAGES)[number]["path"];

/** The side page a page address holds, if any. */
export function sidePageInPath(path = location.pathname): SidePath | undefined {
  return SIDE_PAGES.find((page) => page.path === path.replace(/\/+$/, ""))?.path;
}

/** Links to the side pages, for the sidebar. */
export function SidePageLinks({
  current,
  knowledge,
  onOpen,
}: {
  current: SidePath | undefined;
  /** Whether the web chat has a knowledge base (ENABLE_RAG): without one, no Sources link. */
  knowledge: boolean;
  onOpen(path: SidePath): void;
}) {
  const pages = SIDE_PAGES.filter((page) => knowledge || page.path !== "/sources");
  return (
    <nav aria-label="Account" class="side-pages">
      <ul>
        {pages.map((page) => (
          <li key={page.path}>
            <a
              href={page.path}
              aria-current={current === page.path ? "page" : undefined}
              onClick={(event) => {
                if (event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
                event.preventDefault();
                onOpen(page.path);
              }}
            >
              {page.title}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The side page at `path`, in the chat's place. */
export function SidePage({
  path,
  token,
  fail,
}: {
  path: SidePath;
  token: () => string | undefined;
  /** Turns an error into what the page shows (and notices an expired sign-in). */
  fail(error: unknown): string;
}) {
  const api = useMemo(() => new AccountApi(token), [token]);
  return (
    <main class="side-page">
      {path === "/linked-tokens" ? (
        <LinkedTokensPage api={api} fail={fail} />
      ) : path === "/memories" ? (
        <MemoriesPage api={api} fail={fail} />
      ) : path === "/configured-agents" ? (
        <ConfiguredAgentsPage token={token} fail={fail} />
      ) : path === "/triggers" ? (
        <TriggersPage token={token} fail={fail} />
      ) : path === "/sources" ? (
        <SourcesPage token={token} fail={fail} />
      ) : (
        <AuditPage api={api} fail={fail} />
      )}
    </main>
  );
}
