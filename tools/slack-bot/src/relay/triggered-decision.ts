import type { ChatPlace, ChatPlatform } from "./chat-platform.js";
import type { Identities } from "./identities.js";

/**
 * The prefix of a button's value on a triggered run's question (tools/triggers posts it with the
 * relay's own Approve and Decline action ids): `trigger:<run id>`.
 */
export const TRIGGERED_PREFIX = "trigger:";

/** How long the trigger receiver may take: the decision goes on to the agent, which then runs the change. */
const DECIDE_TIMEOUT_MS = 120_000;

/**
 * A press of Approve or Decline on a triggered run's question: the run is the trigger's, not a Slack
 * user's, so the relay only passes the press on to the trigger receiver (TRIGGERS_URL) with the
 * presser's own linked token; the receiver verifies it and the agent's policy decides whether they
 * may (as for a lead's press on someone else's change). Nothing is decided here, and a presser who
 * is not linked is sent their link first (under AUTH_MODE=jwt).
 */
export async function decideTriggered(
  deps: { platform: ChatPlatform; identities: Identities; triggersUrl: URL | undefined },
  press: { place: ChatPlace; user: string; runId: string; approved: boolean },
  identify: (place: ChatPlace, user: string) => Promise<{ kind: string; token?: string } | undefined>,
): Promise<"decided" | "refused" | "unavailable"> {
  const { platform, triggersUrl } = deps;
  const tell = (text: string) => platform.whisper(press.place, press.user, text);
  if (!triggersUrl) {
    await tell(
      "This run's change can't be answered here: the bot has no TRIGGERS_URL. Answer it on the web chat's Triggered runs page.",
    );
    return "unavailable";
  }
  const identity = await identify(press.place, press.user);
  if (!identity) return "refused";
  const url = new URL(
    `${triggersUrl.pathname.replace(/\/+$/, "")}/api/v1/runs/${encodeURIComponent(press.runId)}/decision`,
    triggersUrl,
  );
  try {
    const answer = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(identity.token ? { authorization: `Bearer ${identity.token}` } : {}),
      },
      body: JSON.stringify({ decision: press.approved ? "approve" : "decline" }),
      redirect: "error",
      signal: AbortSignal.timeout(DECIDE_TIMEOUT_MS),
    });
    const body = (await answer.json().catch(() => ({}))) as { status?: unknown; error?: unknown };
    if (answer.ok) {
      await tell(
        press.approved
          ? `Approved: the run went on (${String(body.status)}); its answer is in the thread.`
          : "Declined: nothing was done.",
      );
      return "decided";
    }
    await tell(
      typeof body.error === "string" ? body.error : `The trigger receiver answered ${answer.status}.`,
    );
    return "refused";
  } catch {
    await tell(
      `I can't reach the trigger receiver at ${triggersUrl.origin}, so nothing was decided. Try again, or answer on the web chat's Triggered runs page.`,
    );
    return "unavailable";
  }
}
