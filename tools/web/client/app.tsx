import { APPROVE, DECLINE, isA2ACallError } from "@switchboard/a2a-client";
import { useCallback, useEffect, useMemo, useRef, useState } from "preact/hooks";
import { type ConversationSummary, SignInNeeded, type SubagentReport, SupervisorApi } from "./api.js";
import type { OidcSignIn, Session } from "./auth.js";
import { Composer } from "./composer.js";
import {
  type AgentItem,
  applyEvent,
  finishItem,
  type Item,
  itemsFromHistory,
  nextId,
  workingItem,
} from "./conversation.js";
import { Messages } from "./messages.js";
import { conversationInPath, pathFor } from "./route.js";
import { SidePage, SidePageLinks, sidePageInPath } from "./side-pages.js";
import { Agents, Conversations } from "./sidebar.js";
import { cancelTurn, runTurn, supervisorName } from "./supervisor.js";

const AGENTS_REFRESH_MS = 10_000;
const HISTORY_POLL_MS = 1_500;

interface AppProps {
  /** Whether the web chat has a knowledge base (ENABLE_RAG): its Sources page is offered then. */
  knowledge: boolean;
  auth?: OidcSignIn;
  session?: Session;
}

/** The chat: conversations and agents beside the open conversation and its message box. */
export function App({ knowledge, auth, session }: AppProps) {
  const api = useMemo(() => new SupervisorApi(() => session?.token), [session]);
  const [contextId, setContextId] = useState(conversationInPath());
  const [sidePage, setSidePage] = useState(sidePageInPath());
  const token = useCallback(() => session?.token, [session]);
  const [items, setItems] = useState<Item[]>([]);
  const [busy, setBusy] = useState(false);
  const [conversations, setConversations] = useState<ConversationSummary[]>([]);
  const [agents, setAgents] = useState<SubagentReport[]>();
  const [agentsProblem, setAgentsProblem] = useState<string>();
  const [problem, setProblem] = useState<string>();
  const [expired, setExpired] = useState(false);
  const [navOpen, setNavOpen] = useState(false);
  // A conversation this page just started has no history to load.
  const started = useRef<string | undefined>(undefined);

  const fail = useCallback((error: unknown): string => {
    if (error instanceof SignInNeeded || (isA2ACallError(error) && error.httpStatus === 401)) {
      setExpired(true);
      return "Your sign-in has expired; sign in again.";
    }
    return error instanceof Error ? error.message : String(error);
  }, []);

  const refreshConversations = useCallback(() => {
    api.conversations().then(setConversations, (error: unknown) => setProblem(fail(error)));
  }, [api, fail]);

  useEffect(() => {
    const refresh = () =>
      api.subagents().then(
        (list) => {
          setAgents(list);
          setAgentsProblem(undefined);
        },
        (error: unknown) => setAgentsProblem(fail(error)),
      );
    void refresh();
    refreshConversations();
    const timer = setInterval(refresh, AGENTS_REFRESH_MS);
    return () => clearInterval(timer);
  }, [api, fail, refreshConversations]);

  useEffect(() => {
    const onPop = () => {
      setContextId(conversationInPath());
      setSidePage(sidePageInPath());
    };
    addEventListener("popstate", onPop);
    return () => removeEventListener("popstate", onPop);
  }, []);

  useEffect(() => {
    setProblem(undefined);
    if (!contextId) {
      setItems([]);
      return;
    }
    if (started.current === contextId) return;
    setItems([]);
    let current = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const load = () =>
      api.conversation(contextId).then(
        (history) => {
          if (!current) return;
          const loaded = history ? itemsFromHistory(history) : [];
          setItems(loaded);
          // A turn still running (the page was reloaded during it) is read again until it ends.
          const last = loaded.at(-1);
          if (last?.kind === "agent" && ["working", "submitted"].includes(last.state))
            timer = setTimeout(load, HISTORY_POLL_MS);
        },
        (error: unknown) => current && setProblem(fail(error)),
      );
    void load();
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [api, contextId, fail]);

  const open = (next: string | undefined) => {
    started.current = undefined;
    history.pushState(null, "", pathFor(next));
    setContextId(next);
    setSidePage(undefined);
    setNavOpen(false);
    document.getElementById("message")?.focus();
  };

  /** Runs one turn: a new message, or (with `taskId`) the answer to that task's question. */
  const send = async (
    text: string,
    taskId?: string,
    decision?: { decision: "approve" | "decline"; argsHashes?: string[] },
  ) => {
    let id = contextId;
    if (!id) {
      id = crypto.randomUUID();
      started.current = id;
      history.pushState(null, "", pathFor(id));
      setContextId(id);
    }
    const item = workingItem(taskId);
    setItems((before) => [
      ...before,
      ...(taskId ? [] : [{ kind: "user" as const, id: nextId(), text }]),
      item,
    ]);
    const update = (change: (item: AgentItem) => AgentItem) =>
      setItems((before) => before.map((each) => (each.id === item.id ? change(each as AgentItem) : each)));
    setBusy(true);
    setProblem(undefined);
    const shown = new Map<string, string>();
    try {
      const self = await supervisorName();
      const result = await runTurn(
        {
          text,
          contextId: id,
          ...(taskId ? { taskId } : {}),
          ...(taskId && decision ? decision : {}),
          ...(session ? { token: session.token } : {}),
        },
        (event) => update((current) => applyEvent(current, event, self, shown)),
      );
      update((current) => finishItem(current, result));
    } catch (error) {
      const reason = fail(error);
      update((current) => ({ ...current, state: "failed", error: reason }));
    } finally {
      setBusy(false);
      refreshConversations();
    }
  };

  const waiting = [...items].reverse().find((item): item is AgentItem => item.kind === "agent");
  const pending = waiting?.question && waiting.reply === undefined ? waiting : undefined;

  // The turn running now, once the supervisor has named its task: what Stop cancels.
  const running = busy && waiting?.state === "working" && waiting.taskId ? waiting.taskId : undefined;
  const stop = async (taskId: string) => {
    try {
      await cancelTurn(taskId, session?.token);
    } catch (error) {
      setProblem(fail(error));
    }
  };

  /** An answer to the item's question: Approve and Decline send their decision explicitly as well. */
  const answer = (item: AgentItem, reply: string) => {
    setItems((before) => before.map((each) => (each.id === item.id ? { ...item, reply } : each)));
    const decision = reply === APPROVE ? "approve" : reply === DECLINE ? "decline" : undefined;
    void send(
      reply,
      item.taskId,
      item.question && decision
        ? { decision, ...(item.argsHashes ? { argsHashes: item.argsHashes } : {}) }
        : undefined,
    );
  };

  const remove = async (conversation: ConversationSummary) => {
    if (!confirm(`Delete the conversation "${conversation.title}" everywhere? This cannot be undone.`))
      return;
    try {
      await api.deleteConversation(conversation.contextId);
      if (conversation.contextId === contextId) open(undefined);
      refreshConversations();
    } catch (error) {
      setProblem(fail(error));
    }
  };

  return (
    <div class={`layout ${navOpen ? "nav-open" : ""}`}>
      <a class="skip" href="#message">
        Skip to the message box
      </a>
      <header class="top">
        <button
          type="button"
          class="menu"
          aria-expanded={navOpen}
          aria-controls="sidebar"
          onClick={() => setNavOpen(!navOpen)}
        >
          Menu
        </button>
        <h1>Switchboard</h1>
        {session ? (
          <div class="user">
            <span>{session.name}</span>
            <button type="button" class="secondary" onClick={() => void auth?.signOut()}>
              Sign out
            </button>
          </div>
        ) : null}
      </header>
      <div id="sidebar" class="sidebar">
        <Conversations
          conversations={conversations}
          current={contextId}
          onOpen={open}
          onDelete={(conversation) => void remove(conversation)}
        />
        <Agents agents={agents} {...(agentsProblem ? { problem: agentsProblem } : {})} />
        <SidePageLinks
          current={sidePage}
          knowledge={knowledge}
          onOpen={(path) => {
            history.pushState(null, "", path);
            setSidePage(path);
            setNavOpen(false);
          }}
        />
      </div>
      {sidePage ? <SidePage path={sidePage} token={token} fail={fail} /> : null}
      <main class="chat" hidden={sidePage !== undefined}>
        {expired && auth ? (
          <div class="banner" role="alert">
            Your sign-in has expired.{" "}
            <button type="button" class="primary" onClick={() => void auth.signIn(location.pathname)}>
              Sign in again
            </button>
          </div>
        ) : null}
        {problem ? (
          <p class="error banner" role="alert">
            {problem}
          </p>
        ) : null}
        <Messages items={items} busy={busy} onAnswer={answer} />
        <Composer
          busy={busy}
          answering={pending !== undefined}
          onSend={(text) => (pending ? answer(pending, text) : void send(text))}
          {...(running ? { onStop: () => void stop(running) } : {})}
        />
      </main>
    </div>
  );
}
