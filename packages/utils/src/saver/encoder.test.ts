import { AIMessageChunk, type BaseMessage, HumanMessage } from "@langchain/core/messages";
import { messagesStateReducer } from "@langchain/langgraph";
import { JsonPlusSerializer } from "@langchain/langgraph-checkpoint";
import { describe, expect, it } from "vitest";
import { type KnownList, longestStoredPrefix, type StoredSoFar, ValueEncoder } from "./encoder.js";
import { StoredIdentities } from "./identity.js";

const serde = new JsonPlusSerializer();
const text = ([, bytes]: [string, Uint8Array]) => new TextDecoder().decode(bytes);
const home = (checkpoint: string) => ({ thread: "t", ns: "", checkpoint, channel: "messages" });
const human = (id: string) => new HumanMessage({ id, content: `message ${id}` });

/** What a conversation has stored, as the saver's thread state would say. */
function storedSoFar(messages = new Map<string, BaseMessage>(), lists: KnownList[] = []): StoredSoFar {
  return {
    hasMessage: (key) => messages.has(key),
    chunkKey: (id) =>
      [...messages].find(([, message]) => message.id === id && message instanceof AIMessageChunk)?.[0],
    message: (key) => messages.get(key),
    lists: () => lists,
  };
}

function encoder(identities: StoredIdentities, stored = storedSoFar()) {
  return new ValueEncoder({ serde, identities, thread: "t", ns: "", stored });
}

describe("ValueEncoder", () => {
  it("stores a new message's body once and refers to it by key", async () => {
    const message = human("m1");
    const encoding = encoder(new StoredIdentities());
    const encoded = text(await encoding.encode({ messages: [message], again: message }));
    const [key] = [...encoding.newMessages.keys()];
    expect(encoding.newMessages.size).toBe(1);
    expect(key).toMatch(/^m1:/);
    expect(JSON.parse(encoded)).toEqual({ messages: [{ __sb_msg: key }], again: { __sb_msg: key } });
  });

  it("serializes a message this saver stored before no more: only its reference", async () => {
    const identities = new StoredIdentities();
    const message = human("m1");
    const first = encoder(identities);
    await first.encode([message]);
    const stored = new Map([...first.newMessages].map(([key, added]) => [key, added.message]));
    const second = encoder(identities, storedSoFar(stored));
    await second.encode([message]);
    expect(second.newMessages.size).toBe(0);
  });

  it("refers to a list this saver stored as a channel value, by channel and checkpoint", async () => {
    const identities = new StoredIdentities();
    const list = [1, 2, 3];
    identities.rememberList(list, home("c1"));
    expect(JSON.parse(text(await encoder(identities).encode({ carried: list })))).toEqual({
      carried: { __sb_chan: ["messages", "c1"] },
    });
  });

  it("never refers to what another saver stored: the same objects are stored whole", async () => {
    const [first, second] = [new StoredIdentities(), new StoredIdentities()];
    const message = human("m1");
    const list = [message];
    const firstEncoding = encoder(first);
    await firstEncoding.encode(list);
    first.rememberList(list, home("c1"));

    const secondEncoding = encoder(second);
    const encoded = JSON.parse(text(await secondEncoding.encode(list)));
    expect(encoded).toEqual([{ __sb_msg: expect.stringMatching(/^m1:/) }]);
    expect([...secondEncoding.newMessages.keys()]).toEqual([...firstEncoding.newMessages.keys()]);
  });

  it("stores a streamed reply's plain copy as a reference to its chunk, with no body of its own", async () => {
    const chunk = new AIMessageChunk({ id: "r1", content: "streamed reply" });
    const plain = messagesStateReducer([], [chunk])[0] as BaseMessage;
    const encoding = encoder(new StoredIdentities(), storedSoFar(new Map([["r1:abc", chunk]])));
    const encoded = JSON.parse(text(await encoding.encode([plain])));
    expect(encoding.newMessages.size).toBe(0);
    expect([...encoding.newPlainCopies.keys()]).toEqual([encoded[0].__sb_msg]);
    expect(encoded[0].__sb_msg).toMatch(/^r1:abc/);
  });

  it("gives a message without an id one, so its write and the channel value share a copy", async () => {
    const message = new HumanMessage("no id");
    await encoder(new StoredIdentities()).encode([message]);
    expect(message.id).toMatch(/[0-9a-f-]{36}/);
  });
});

describe("longestStoredPrefix", () => {
  const messages = ["a", "b", "c", "d", "e", "f"].map(human);
  const known = (list: unknown[], checkpoint: string): KnownList => ({ home: home(checkpoint), list });

  it("picks the longest stored list the value starts with, item for item", () => {
    const short = known(messages.slice(0, 4), "c1");
    const long = known(messages.slice(0, 5), "c2");
    const other = known([human("x"), ...messages.slice(1, 5)], "c3");
    expect(longestStoredPrefix(messages, () => [short, long, other])).toBe(long);
  });

  it("matches only message lists of a few items, and asks for the stored lists only then", () => {
    let asked = 0;
    const lists = () => {
      asked++;
      return [known(messages.slice(0, 4), "c1")];
    };
    expect(longestStoredPrefix(messages.slice(0, 3), lists)).toBeUndefined();
    expect(longestStoredPrefix([1, 2, 3, 4, 5], lists)).toBeUndefined();
    expect(asked).toBe(0);
    expect(longestStoredPrefix([...messages.slice(0, 3), human("z")], lists)).toBeUndefined();
    expect(asked).toBe(1);
  });
});
