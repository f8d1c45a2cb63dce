import {
  type FakeOpenMeteo,
  type OpenMeteoSeed,
  startFakeOpenMeteo,
} from "@switchboard-testing/fake-vendors";
import type { PlacedVendor } from "./placed.js";

/**
 * Open-Meteo for the weather agent, whose two APIs (forecast, geocoding) the evaluation's proxies do
 * not stand for: a fresh fake per case on the same two ports, seeded with the case's places, and a
 * fake with the default places between cases.
 */
export async function openMeteoOnPorts(ports: {
  forecast: number;
  geocoding: number;
}): Promise<PlacedVendor> {
  let fake: FakeOpenMeteo = await startFakeOpenMeteo({ ports });
  const replace = async (seed: unknown) => {
    await fake.close();
    fake = await startFakeOpenMeteo({
      ports,
      ...(seed === undefined ? {} : { seed: seed as OpenMeteoSeed }),
    });
  };
  return {
    env: {
      WEATHER_API_URL: fake.forecast.url,
      WEATHER_GEOCODING_API_URL: fake.geocoding.url,
    },
    begin: replace,
    end: () => replace(undefined),
    server: () => fake,
    close: () => fake.close(),
  };
}
