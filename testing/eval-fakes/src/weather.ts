import { type OpenMeteoSeed, startFakeOpenMeteo } from "@switchboard-testing/fake-vendors";
import type { PlacedVendor } from "./placed.js";

/**
 * Open-Meteo for the weather agent, whose two APIs (forecast, geocoding) the evaluation's proxies do
 * not stand for: one fake for the whole evaluation, its places replaced by the case's before each
 * case that reaches it and by the defaults after.
 */
export async function openMeteo(): Promise<PlacedVendor> {
  const fake = await startFakeOpenMeteo();
  return {
    env: { WEATHER_API_URL: fake.forecast.url, WEATHER_GEOCODING_API_URL: fake.geocoding.url },
    begin: async (seed) => fake.reseed(seed as OpenMeteoSeed | undefined),
    end: async () => fake.reseed(),
    server: () => fake,
    close: () => fake.close(),
  };
}
