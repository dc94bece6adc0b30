import { defineConfig } from "vitest/config";

/**
 * Three projects:
 *   unit         test/unit/**, test/golden/**   fixed seeds, no child processes
 *   integration  test/integration/**            fixed seeds, real servers and CLIs
 *   soak         test/soak/**                   random seeds (printed), long sweeps
 * `npm test` runs unit and integration; `npm run test:soak` runs soak.
 */
export default defineConfig({
  test: {
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    env: { PKS_LOG: "silent" },
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["test/unit/**/*.test.ts", "test/golden/**/*.test.ts"],
          setupFiles: ["test/support/fixed-seed.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["test/integration/**/*.test.ts"],
          setupFiles: ["test/support/fixed-seed.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "soak",
          include: ["test/soak/**/*.test.ts"],
        },
      },
    ],
  },
});
