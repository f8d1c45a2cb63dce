import type { ViteUserConfig } from "vitest/config";

export const SOURCE_CONDITION: string;
export const INTEGRATION_ONLY_ENV: string;
export const sharedTestSettings: NonNullable<ViteUserConfig["test"]>;
export function defineTestConfig(options?: { mongo?: boolean } & ViteUserConfig): ViteUserConfig;
