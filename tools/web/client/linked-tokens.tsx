import { useCallback, useState } from "preact/hooks";
import { type AccountApi, type AgentLinks, useAccountList } from "./account-api.js";

/**
 * The user's own tokens for the agents' vendors: which are linked (and since when, never the
 * token), a field to link one, and unlink. The agents store them; this page only passes them on.
 */
export function LinkedTokensPage({ api, fail }: { api: AccountApi; fail(error: unknown): string }) {
  const load = useCallback(() => api.links(), [api]);
  const { value: links, problem, notice, act } = useAccountList(load, fail);

  const takers = links?.agents.filter((agent) => agent.vendor) ?? [];
  const others = links?.agents.filter((agent) => !agent.vendor) ?? [];
  return (
    <section aria-labelledby="linked-heading" class="linked-tokens">
      <h2 id="linked-heading">Linked tokens</h2>
      <p class="muted">
        Link a token of your own and the agent acts as you at that vendor, with what your token may do. Tokens
        are stored encrypted by the agent and never shown again.
      </p>
      {problem ? (
        <p class="error" role="alert">
          {problem}
        </p>
      ) : null}
      {notice ? <output class="notice">{notice}</output> : null}
      {links === undefined ? <p class="muted">Loading…</p> : null}
      {links && takers.length === 0 ? <p class="muted">No agent here takes tokens of your own.</p> : null}
      <ul class="vendor-list">
        {takers.map((agent) => (
          <VendorItem
            key={agent.agent}
            agent={agent}
            onLink={(token) =>
              act(
                () => api.link(agent.vendor?.vendor ?? "", token),
                `Your ${agent.vendor?.title} token is linked.`,
              )
            }
            onUnlink={() =>
              act(
                () => api.unlink(agent.vendor?.vendor ?? ""),
                `Your ${agent.vendor?.title} token is unlinked.`,
              )
            }
          />
        ))}
      </ul>
      {others.length > 0 || (links?.unavailable.length ?? 0) > 0 ? (
        <details>
          <summary>Agents that act with their own credentials only</summary>
          <ul>
            {others.map((agent) => (
              <li key={agent.agent}>
                <strong>{agent.agent}</strong>: {agent.reason}
              </li>
            ))}
            {links?.unavailable.map((agent) => (
              <li key={agent.agent}>
                <strong>{agent.agent}</strong>: not reachable ({agent.reason})
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </section>
  );
}

function VendorItem({
  agent,
  onLink,
  onUnlink,
}: {
  agent: AgentLinks;
  onLink(token: string): Promise<void>;
  onUnlink(): Promise<void>;
}) {
  const [token, setToken] = useState("");
  const vendor = agent.vendor;
  if (!vendor) return null;
  const linked = agent.linked?.[0];
  const field = `token-${agent.agent}`;
  return (
    <li data-vendor={vendor.vendor}>
      <div class="agent-line">
        <span class="agent-name">{vendor.title}</span>
        <span class={`status status-${linked ? "up" : "down"}`}>{linked ? "linked" : "not linked"}</span>
      </div>
      {!agent.enabled ? (
        <p class="muted reason">{agent.reason}</p>
      ) : (
        <>
          {linked ? (
            <p class="muted">
              Linked <time dateTime={linked.linkedAt}>{new Date(linked.linkedAt).toLocaleString()}</time>{" "}
              <button type="button" class="secondary" onClick={() => void onUnlink()}>
                Unlink {vendor.title}
              </button>
            </p>
          ) : null}
          <form
            class="link-form"
            onSubmit={(event) => {
              event.preventDefault();
              const value = token;
              setToken("");
              void onLink(value);
            }}
          >
            <label for={field}>
              {linked ? "Replace with" : "Your token"}: <span class="muted">{vendor.hint}</span>
            </label>
            <input
              id={field}
              type="password"
              autocomplete="off"
              spellcheck={false}
              value={token}
              onInput={(event) => setToken((event.target as HTMLInputElement).value)}
              required
            />
            <button type="submit" class="primary">
              Link {vendor.title}
            </button>
          </form>
        </>
      )}
    </li>
  );
}
