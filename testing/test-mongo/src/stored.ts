import type { Db } from "mongodb";

/**
 * Every document of a database as text, binary fields (checkpoint blobs) decoded: for tests that
 * prove something (a token, a password) was never stored anywhere.
 */
export async function storedText(db: Db): Promise<string> {
  const parts: string[] = [];
  for (const { name } of await db.listCollections().toArray()) {
    const documents = await db.collection(name).find().toArray();
    parts.push(
      JSON.stringify(documents, (_key, value) =>
        value?._bsontype === "Binary" ? Buffer.from(value.buffer).toString("utf8") : value,
      ),
    );
  }
  return parts.join("\n");
}
