import type { ViteUserConfig } from "vitest/config";

export function defineTestConfig(options?: { mongo?: boolean } & ViteUserConfig): ViteUserConfig;
