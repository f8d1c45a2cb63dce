import { MongoClient } from "mongodb";
import { describe, expect, it } from "vitest";
import { databaseFromUri, encodeMongoUri, hostsFromUri, redactMongoUri } from "./mongo-uri.js";

/** What the real driver would authenticate with, parsed the way it parses connection strings. */
function credentialsSeenByDriver(uri: string) {
  const client = new MongoClient(uri);
  const credentials = client.options.credentials;
  return { username: credentials?.username, password: credentials?.password, db: client.options.dbName };
}

describe("MongoDB URI credentials", () => {
  const reserved = [
    "/",
    "+",
    "=",
    "@",
    ":",
    "?",
    "#",
    "%",
    "[",
    "]",
    "&",
    "!",
    "$",
    "'",
    "(",
    ")",
    "*",
    ",",
    ";",
    " ",
  ];

  it.each(reserved)(
    "percent-encodes an unencoded %j in the password so the driver gets it verbatim",
    (char) => {
      const password = `pa${char}ss${char}word`;
      const encoded = encodeMongoUri(`mongodb://admin:${password}@db.internal:27017/caipe?authSource=admin`);
      expect(credentialsSeenByDriver(encoded)).toEqual({ username: "admin", password, db: "caipe" });
    },
  );

  it("handles the production password from the reference system's incident", () => {
    const password = "Du0PmDvmqDWqDTgfGnmi6/SKyuQydi3z7cPTgEQoE+s=";
    const encoded = encodeMongoUri(`mongodb://user:${password}@mongo:27017`);
    expect(credentialsSeenByDriver(encoded).password).toBe(password);
  });

  it("leaves an already-encoded URI unchanged (no double encoding)", () => {
    const uri = "mongodb://admin:pass%2Fword%2B123%3D@localhost:27017/db?authSource=admin";
    expect(encodeMongoUri(uri)).toBe(uri);
    expect(credentialsSeenByDriver(encodeMongoUri(uri)).password).toBe("pass/word+123=");
  });

  it("encodes a mix of escapes and raw reserved characters once", () => {
    const encoded = encodeMongoUri("mongodb://admin:a%2Fb/c@localhost/db");
    expect(credentialsSeenByDriver(encoded).password).toBe("a/b/c");
  });

  it("keeps a literal % that is not an escape", () => {
    const encoded = encodeMongoUri("mongodb://admin:100%sure@localhost/db");
    expect(credentialsSeenByDriver(encoded).password).toBe("100%sure");
  });

  it("encodes usernames too, and works for replica sets and mongodb+srv", () => {
    const encoded = encodeMongoUri("mongodb://svc@corp:p@ss@db1:27017,db2:27017/app?replicaSet=rs0");
    expect(credentialsSeenByDriver(encoded)).toMatchObject({
      username: "svc@corp",
      password: "p@ss",
      db: "app",
    });
    expect(hostsFromUri(encoded)).toBe("db1:27017,db2:27017");
    expect(encodeMongoUri("mongodb+srv://u:a/b@cluster0.example.net/x")).toBe(
      "mongodb+srv://u:a%2Fb@cluster0.example.net/x",
    );
  });

  it("leaves URIs without credentials alone", () => {
    expect(encodeMongoUri("mongodb://localhost:27017")).toBe("mongodb://localhost:27017");
  });
});

describe("redactMongoUri", () => {
  it("hides the password, raw or encoded, and keeps the rest", () => {
    expect(redactMongoUri("mongodb://admin:pa/ss@word@db:27017/x?tls=true")).toBe(
      "mongodb://admin:****@db:27017/x?tls=true",
    );
    expect(redactMongoUri("mongodb://admin:s%40cret@db:27017")).toBe("mongodb://admin:****@db:27017");
    expect(redactMongoUri("mongodb://db:27017")).toBe("mongodb://db:27017");
    expect(redactMongoUri("postgres://u:secret@db")).not.toContain("secret");
  });
});

describe("databaseFromUri", () => {
  it("reads the path database, if any", () => {
    expect(databaseFromUri("mongodb://db:27017/caipe?authSource=admin")).toBe("caipe");
    expect(databaseFromUri("mongodb://u:p/w@db:27017/")).toBeUndefined();
    expect(databaseFromUri("mongodb://db:27017?authSource=admin")).toBeUndefined();
  });
});
