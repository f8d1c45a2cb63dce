/** A place as Open-Meteo's geocoding API answers it (GET /v1/search), with the weather the fake reports there. */
export interface Place {
  id: number;
  name: string;
  latitude: number;
  longitude: number;
  elevation: number;
  feature_code: string;
  country_code: string;
  country: string;
  admin1?: string;
  timezone: string;
  population?: number;
}

/** What the fake forecast says at a place: now, then one entry per day. */
export interface PlaceWeather {
  current: {
    temperature: number;
    apparent: number;
    humidity: number;
    code: number;
    wind: number;
    gusts: number;
    precipitation: number;
  };
  days: Array<{ code: number; max: number; min: number; precipitation: number; rainChance: number }>;
}

export interface SeededPlace extends Place {
  weather: PlaceWeather;
}

export function seedPlaces(): SeededPlace[] {
  return [
    {
      id: 2988507,
      name: "Paris",
      latitude: 48.85341,
      longitude: 2.3488,
      elevation: 42,
      feature_code: "PPLC",
      country_code: "FR",
      country: "France",
      admin1: "Île-de-France",
      timezone: "Europe/Paris",
      population: 2138551,
      weather: {
        current: {
          temperature: 18.4,
          apparent: 17.9,
          humidity: 62,
          code: 3,
          wind: 11.2,
          gusts: 24.1,
          precipitation: 0,
        },
        days: [
          { code: 3, max: 21.3, min: 12.8, precipitation: 0, rainChance: 10 },
          { code: 61, max: 17.9, min: 11.2, precipitation: 4.6, rainChance: 80 },
          { code: 1, max: 22.5, min: 10.9, precipitation: 0, rainChance: 5 },
        ],
      },
    },
    {
      id: 4174715,
      name: "Paris",
      latitude: 33.66094,
      longitude: -95.55551,
      elevation: 183,
      feature_code: "PPLA2",
      country_code: "US",
      country: "United States",
      admin1: "Texas",
      timezone: "America/Chicago",
      population: 24782,
      weather: {
        current: {
          temperature: 29.1,
          apparent: 31.4,
          humidity: 55,
          code: 0,
          wind: 8.4,
          gusts: 15,
          precipitation: 0,
        },
        days: [
          { code: 0, max: 32.2, min: 20.1, precipitation: 0, rainChance: 0 },
          { code: 95, max: 30.4, min: 21.5, precipitation: 12.2, rainChance: 70 },
          { code: 2, max: 31, min: 19.8, precipitation: 0, rainChance: 15 },
        ],
      },
    },
    {
      id: 2643743,
      name: "London",
      latitude: 51.50853,
      longitude: -0.12574,
      elevation: 25,
      feature_code: "PPLC",
      country_code: "GB",
      country: "United Kingdom",
      admin1: "England",
      timezone: "Europe/London",
      population: 8961989,
      weather: {
        current: {
          temperature: 14.2,
          apparent: 12.6,
          humidity: 81,
          code: 63,
          wind: 19.4,
          gusts: 38.2,
          precipitation: 1.2,
        },
        days: [
          { code: 63, max: 15.1, min: 9.4, precipitation: 8.3, rainChance: 90 },
          { code: 80, max: 16.2, min: 8.8, precipitation: 2.1, rainChance: 60 },
          { code: 3, max: 17.7, min: 9.9, precipitation: 0.2, rainChance: 20 },
        ],
      },
    },
  ];
}
