import type { Db } from "mongodb";

/**
 * The exact BSON size of every document in every collection of `db`, summed: `$bsonSize` where the
 * server has it (MongoDB, DocumentDB), else the raw BSON the server returns (mongo-java-server, the
 * test MongoDB, has no `$bsonSize`). Both count what a side stored, whatever its collections.
 */
export async function storedBytes(db: Db): Promise<number> {
  const names = (await db.listCollections({}, { nameOnly: true }).toArray()).map((entry) => entry.name);
  let total = 0;
  for (const name of names) {
    const collection = db.collection(name);
    try {
      const [row] = await collection
        .aggregate<{ bytes: number }>([{ $group: { _id: null, bytes: { $sum: { $bsonSize: "$$ROOT" } } } }])
        .toArray();
      total += row?.bytes ?? 0;
    } catch {
      for await (const raw of collection.find({}, { raw: true, batchSize: 500 })) {
        total += (raw as unknown as Uint8Array).byteLength;
      }
    }
  }
  return total;
}
