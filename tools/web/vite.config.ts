import { defineConfig } from "vite";

// The page is built once into dist/public, which the web server serves (no dev server in production).
export default defineConfig({
  root: "client",
  base: "/",
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  build: {
    outDir: "../dist/public",
    emptyOutDir: true,
    target: "es2022",
    // The report of what the page costs the browser: scripts and styles, gzipped.
    reportCompressedSize: true,
  },
});
