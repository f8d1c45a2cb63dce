import type { Channel, Message, SlackState } from "./state.js";

const channel = (id: string, name: string, purpose: string, extra: Partial<Channel> = {}): Channel => ({
  id,
  name,
  is_private: false,
  is_archived: false,
  is_member: true,
  topic: { value: "" },
  purpose: { value: purpose },
  num_members: 12,
  ...extra,
});

/** Three channels (one the bot is not in, one archived), a few messages, three users. */
export function seedSlack(now = Date.now()): SlackState {
  const ts = (minutesAgo: number) => `${Math.floor((now - minutesAgo * 60_000) / 1000)}.000100`;
  const message = (user: string, text: string, minutesAgo: number): Message => ({
    type: "message",
    user,
    text,
    ts: ts(minutesAgo),
  });
  return {
    channels: [
      channel("C0PLATFORM", "platform-team", "Platform engineering"),
      channel("C0INCIDENT", "incidents", "Production incidents"),
      channel("C0RANDOM01", "random", "Anything", { is_member: false }),
      channel("C0OLDDEPLO", "deploys-2023", "Old deploy log", { is_archived: true }),
    ],
    history: new Map([
      [
        "C0INCIDENT",
        [
          message("U0ALICE", "checkout-api 5xx are back to normal, monitoring", 5),
          message("U0BOB", "rolling back checkout-api to v41", 20),
          message("U0ALICE", "checkout-api 5xx rate above 5% since 09:10", 30),
        ],
      ],
      ["C0PLATFORM", [message("U0BOB", "EKS 1.30 upgrade is scheduled for Thursday", 60)]],
    ]),
    users: [
      { id: "U0ALICE", name: "alice", real_name: "Alice Oncall" },
      { id: "U0BOB", name: "bob", real_name: "Bob Secondary" },
      { id: "U0BOT", name: "switchboard", real_name: "Switchboard" },
    ],
    posted: [],
    botUserId: "U0BOT",
  };
}
