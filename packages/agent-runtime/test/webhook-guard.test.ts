import type { LookupAddress } from "node:dns";
import { describe, expect, it } from "vitest";
import {
  badWebhookUrl,
  isPublicAddress,
  PRIVATE_WEBHOOK,
  publicOnlyLookup,
  webhookLabel,
} from "../src/push/webhook-guard.js";

describe("which addresses push notifications may reach", () => {
  it.each([
    ["93.184.215.14", true],
    ["2606:2800:21f:cb07:6820:80da:af6b:8b2c", true],
    ["127.0.0.1", false],
    ["10.0.0.8", false],
    ["172.16.5.4", false],
    ["192.168.1.1", false],
    ["169.254.169.254", false],
    ["100.64.0.1", false],
    ["0.0.0.0", false],
    ["224.0.0.1", false],
    ["::1", false],
    ["fe80::1", false],
    ["fd00::1", false],
    ["::ffff:127.0.0.1", false],
    ["::ffff:93.184.215.14", true],
    ["not an address", false],
  ])("%s → public %s", (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });

  it("checks URLs by scheme and literal host, and names the setting without echoing the query", () => {
    expect(badWebhookUrl("https://hooks.example.com/a2a?k=1", false)).toBeUndefined();
    expect(badWebhookUrl("http://127.0.0.1:9/hook", true)).toBeUndefined();
    expect(badWebhookUrl("http://[fd00::1]/x?secret=s3cret", false)).toMatch(
      /host \[fd00::1\] is on a loopback, link-local or private network;.*PUSH_NOTIFICATIONS_ALLOW_PRIVATE_NETWORKS=true/,
    );
    expect(badWebhookUrl("http://[fd00::1]/x?secret=s3cret", false)).not.toContain("s3cret");
    expect(badWebhookUrl("file:///etc/passwd", true)).toBe(
      "the push notification URL must be http or https, not file",
    );
    expect(badWebhookUrl("/relative", false)).toBe("the push notification URL is not a valid absolute URL");
    expect(badWebhookUrl(7, false)).toBe("the push notification URL must be a string");
    expect(webhookLabel("https://user:pw@hooks.example.com/a2a?token=t#f")).toBe(
      "https://hooks.example.com/a2a",
    );
  });
});

describe("the lookup deliveries connect through", () => {
  // A resolver standing in for DNS: a name that points inside the network must not be reached,
  // whether it did so when the config was set or only later (rebinding).
  const zone: Record<string, LookupAddress[]> = {
    "inside.example.com": [{ address: "10.0.0.9", family: 4 }],
    "mixed.example.com": [
      { address: "127.0.0.1", family: 4 },
      { address: "93.184.215.14", family: 4 },
    ],
  };
  const lookup = publicOnlyLookup((hostname, _options, callback) => callback(null, zone[hostname] ?? []));
  const resolve = (hostname: string, all: boolean) =>
    new Promise<{ error: NodeJS.ErrnoException | null; address: unknown }>((done) =>
      lookup(hostname, { all }, (error, address) => done({ error, address })),
    );

  it("refuses a name that resolves only to internal addresses, naming the setting", async () => {
    const { error } = await resolve("inside.example.com", false);
    expect(error?.code).toBe(PRIVATE_WEBHOOK);
    expect(error?.message).toContain("PUSH_NOTIFICATIONS_ALLOW_PRIVATE_NETWORKS=true");
  });

  it("connects only to the public addresses of a name that has both", async () => {
    expect((await resolve("mixed.example.com", false)).address).toBe("93.184.215.14");
    expect((await resolve("mixed.example.com", true)).address).toEqual([
      { address: "93.184.215.14", family: 4 },
    ]);
  });
});
