// ESLint for the front end (web/): the recommended rules, ES modules, browser and worker globals
// (web/sw.js is a classic service worker script: it loads the build's precache.js by importScripts).
// Pinned in package.json / package-lock.json; python3 build.py test installs it (npm ci) and runs it.
import js from "@eslint/js";
import globals from "globals";

export default [
  js.configs.recommended,
  {
    files: ["web/**/*.js", "web/**/*.mjs"],
    languageOptions: {
      ecmaVersion: 2024,
      sourceType: "module",
      globals: { ...globals.browser },
    },
    rules: {
      "no-unused-vars": ["error", { args: "after-used", argsIgnorePattern: "^_" }],
    },
  },
  {
    files: ["web/runtime/worker.mjs", "web/runtime/downloads.js"],
    languageOptions: { globals: { ...globals.worker } },
  },
  {
    files: ["web/sw.js"],
    languageOptions: { sourceType: "script", globals: { ...globals.serviceworker } },
  },
];
