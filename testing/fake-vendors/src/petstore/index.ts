import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Document } from "openapi-backend";
import { parse } from "yaml";
import { seedParts } from "../seed.js";
import {
  isRecord,
  type RouteContext,
  startVendorServer,
  VendorHttpError,
  type VendorServer,
} from "../vendor-server.js";

/** A pet as the Petstore's description has it. */
export interface Pet {
  id: number;
  name: string;
  category?: { id: number; name: string };
  photoUrls: string[];
  tags?: Array<{ id: number; name: string }>;
  status?: "available" | "pending" | "sold";
}

/** A change the fake applied, oldest first: what tests count. */
export interface PetstoreChange {
  operation: "addPet" | "updatePet" | "deletePet";
  petId: number;
}

export interface FakePetstore extends VendorServer {
  /** The base URL clients use: the description's server path (/api/v3) on this server. */
  apiUrl: string;
  /** The key it expects in the `api_key` header. */
  apiKey: string;
  pets: Pet[];
  readonly changes: PetstoreChange[];
}

// specs/ beside src/ and dist/.
/** Parts of the state a test or an evaluation case can seed, each replacing the default part. */
export interface PetstoreSeed {
  pets?: Pet[];
}

const SPEC = join(import.meta.dirname, "..", "..", "specs", "swagger-petstore", "openapi.yaml");

/** The Petstore's description (OpenAPI 3.0), parsed from the vendored file. */
export async function loadPetstoreSpec(): Promise<Document> {
  return parse(await readFile(SPEC, "utf8")) as Document;
}

function seedPets(): Pet[] {
  return [
    {
      id: 1,
      name: "Rex",
      category: { id: 1, name: "Dogs" },
      photoUrls: [],
      tags: [{ id: 1, name: "friendly" }],
      status: "available",
    },
    { id: 2, name: "Whiskers", category: { id: 2, name: "Cats" }, photoUrls: [], status: "available" },
    { id: 3, name: "Goldie", category: { id: 3, name: "Fish" }, photoUrls: [], status: "sold" },
  ];
}

/**
 * The Swagger Petstore on loopback, driven by its own OpenAPI description: requests are matched to
 * its operations and validated, answers checked against its schemas. The pet operations keep state;
 * the others answer with the description's examples. Every request must carry the `api_key` header
 * (the Petstore's apiKey scheme), as a deployment that enforces it would.
 */
export async function startFakePetstore(
  options: { apiKey?: string; seed?: PetstoreSeed } = {},
): Promise<FakePetstore> {
  const apiKey = options.apiKey ?? "petstore-test-key";
  const defaults = { pets: seedPets() };
  const { pets } = { ...defaults, ...seedParts("Petstore", defaults, options.seed, ["pets"]) };
  const changes: PetstoreChange[] = [];
  const find = (id: string | undefined) => {
    const pet = pets.find((one) => one.id === Number(id));
    if (!pet) throw new VendorHttpError(404, "Pet not found");
    return pet;
  };
  const petOf = (body: unknown): Pet => {
    if (!isRecord(body)) throw new VendorHttpError(400, "Invalid input");
    return body as unknown as Pet;
  };
  const server = await startVendorServer({
    name: "Petstore",
    openApi: {
      document: await loadPetstoreSpec(),
      apiRoot: "/api/v3",
      mockOthers: true,
      operations: {
        findPetsByStatus: ({ query }: RouteContext) => {
          const status = query.get("status") ?? "available";
          return { status: 200, body: pets.filter((pet) => pet.status === status) };
        },
        getPetById: ({ params }) => ({ status: 200, body: find(params.petId) }),
        addPet: ({ body }) => {
          const pet = { ...petOf(body), id: Math.max(0, ...pets.map((one) => one.id)) + 1 };
          pets.push(pet);
          changes.push({ operation: "addPet", petId: pet.id });
          return { status: 200, body: pet };
        },
        updatePet: ({ body }) => {
          const update = petOf(body);
          const pet = find(String(update.id));
          Object.assign(pet, update);
          changes.push({ operation: "updatePet", petId: pet.id });
          return { status: 200, body: pet };
        },
        deletePet: ({ params }) => {
          const pet = find(params.petId);
          pets.splice(pets.indexOf(pet), 1);
          changes.push({ operation: "deletePet", petId: pet.id });
          return { status: 200 };
        },
        getInventory: () => {
          const counts: Record<string, number> = {};
          for (const pet of pets) if (pet.status) counts[pet.status] = (counts[pet.status] ?? 0) + 1;
          return { status: 200, body: counts };
        },
      },
    },
    checkRequest: ({ headers }) => {
      if (headers.api_key !== apiKey) throw new VendorHttpError(401, "Invalid or missing api_key");
    },
    // The description's ApiResponse shape.
    errorBody: (error) => ({
      code: error.status,
      type: "error",
      message: [error.message, ...error.details].join("; "),
    }),
  });
  return { ...server, apiUrl: `${server.url}/api/v3`, apiKey, pets, changes };
}
