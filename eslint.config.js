// ESLint (flat config) for the browser modules and their unit tests: `make lint`.
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: [".venv/", "node_modules/", "staticfiles/", "test-artifacts/", "build/", "dist/"] },
  js.configs.recommended,
  {
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      eqeqeq: "error",
      "no-implicit-globals": "error",
      "no-var": "error",
      "prefer-const": "error",
    },
  },
  {
    files: ["games/static/**/*.js"],
    languageOptions: { globals: globals.browser },
  },
  {
    files: ["tests/js/**/*.js", "eslint.config.js"],
    languageOptions: { globals: globals.node },
  },
];
