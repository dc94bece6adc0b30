import { defineConfig } from "vitest/config";

/**
 * Three projects:
 *   unit         test/unit/**, test/golden/**   fixed seeds, in-process
 *   integration  test/integration/**            fixed seeds, real servers and CLIs
 *   soak         test/soak/**                   random seeds (printed), long sweeps
 *   browser      test/browser/**                the console in a real Chromium
 * `npm test` runs unit and integration; `npm run test:soak` runs soak;
 * `npm run test:browser` runs browser (skipped, with the reason, where no
 * Chromium is found; `.ci/run` installs it).
 *
 * Unit test files share their worker processes (`isolate: false`): starting
 * a fresh process for each of some seventy small files cost more than the
 * tests themselves. They keep no state between files (spies are restored,
 * environment changes undone), and pass with files shuffled
 * (`--sequence.shuffle.files`). Integration and soak files, which start
 * servers and child processes, keep a process each.
 *
 * Two test files run at a time whatever the core count (vitest's default
 * is one fewer than the cores: one at a time on a 2-core machine). Most
 * integration and soak files spend their time waiting on a spawned server,
 * a child reader or a poll, so a second file fills that wait.
 */
export default defineConfig({
  test: {
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    maxWorkers: 2,
    env: { PKS_LOG: "silent" },
    // Threads, reader processes and spawned servers start from a JavaScript copy of the sources.
    globalSetup: ["test/support/thread-build.ts"],
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["test/unit/**/*.test.ts", "test/golden/**/*.test.ts"],
          isolate: false,
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
      {
        extends: true,
        test: {
          name: "browser",
          include: ["test/browser/**/*.test.ts"],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // A page read right after a click may still be loading on a busy machine.
          expect: { poll: { timeout: 10_000 } },
        },
      },
    ],
  },
});
