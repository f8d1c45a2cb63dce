import type { A2ACallError } from "@switchboard/a2a-client";

/** What the relay says in a thread when something did not go as asked: short, and what to do next. */
export const replies = {
  working: "_Working on it…_",
  supervisorDown: (error: A2ACallError) =>
    error.code === "a2a.timeout"
      ? "Switchboard did not answer in time, so I stopped waiting. Please try again; if it keeps happening, tell your platform team."
      : "I can't reach Switchboard right now (its supervisor is not answering). Please try again in a minute; if it keeps happening, tell your platform team.",
  refusedToken:
    "Switchboard did not accept your sign-in (it may have expired or been revoked). Use the link I just sent you to sign in again.",
  timedOut: (seconds: number) =>
    `No progress for ${seconds} seconds, so I stopped waiting for this answer. Please ask again; if it keeps happening, tell your platform team.`,
  failed: (why: string) => `That did not work: ${why || "the request failed"}.`,
  denied: (why: string) => `Switchboard refused this: ${why || "you are not allowed to do it"}.`,
  canceled: "The request was stopped before it finished.",
  noAnswer: "The request finished without an answer.",
  unexpected:
    "Something went wrong on my side while answering. Please try again; if it keeps happening, tell your platform team.",
  // `platform` as users read it: Slack, Webex.
  needsLink: (mention: string, platform: string) =>
    `${mention} before I can act for you, link your ${platform} account to your sign-in: I sent you a link only you can see.`,
  linkWhisper: (url: string, platform: string) =>
    `To use Switchboard from ${platform}, sign in once with your organisation's account: ${url} (this link is yours alone and works once, for 10 minutes; after signing in you confirm here that it is you).`,
  onlyAsker: (mention: string) =>
    `Only ${mention} can answer this (the change runs as them), or someone Switchboard's policy lets approve it, once they have linked their chat account to their sign-in.`,
  askerUnavailable: (mention: string) =>
    `I can't act for ${mention} right now (their sign-in link no longer works), so nothing was decided. Ask them to answer, or to talk to me once so I can link them again.`,
  approvalRefused: (mention: string) =>
    `Switchboard's policy does not let you decide ${mention}'s change: nothing was done, and they can still answer it.`,
  alreadyDecided: "This was already answered.",
  unknownConfirmation: "I don't know this confirmation any more: please ask again.",
} as const;
