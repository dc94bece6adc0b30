// Import rules for pks, checked by `npm run lint:imports`
// (scripts/check-imports.ts runs dependency-cruiser with this file over
// `src tools`, then adds two checks dependency-cruiser cannot express: no cycle
// between top-level folders of src, and no SQL outside src/store).
//
// Paths are relative to the cruised root and always use "/".
//
// The layers, bottom to top:
//   root leaves   src/*.ts except app.ts and main.ts (errors, config, logger,
//                 version, ids, base62, vocabulary, package-root, prompts)
//   store         src/store/ — every SQL string, the only user of the driver
//   access        src/access/ — keys, authentication, sessions
//   core          src/core/ — action contract, catalog, service pipeline
//   domains       every other top-level folder of src (code, entities, graph,
//                 ingest, readers, retrieve, text, and any folder added later)
//   tools/        the MCP action catalog (core + domains)
//   transports    src/transports/ — MCP stdio/HTTP and REST; thin wire code
//   console       src/console/ — the people's pages: calls endpoints and
//                 actions through the service, never the store
//   cli, app.ts, main.ts — wiring
//
// Type-only imports (`import type`) are seen (tsPreCompilationDeps) and count
// like value imports in every rule: a layer that may not import a module may
// not know its types either.
//
// `npm run lint:imports -- --markdown` prints these rules as a Markdown table
// for docs/architecture.md; keep each `comment` one readable sentence or two.

/** Folders under src that are not domains. Any other top-level folder is one. */
const NOT_DOMAINS = "^src/(core|store|transports|cli|access|console)/";
const ANY_TOP_LEVEL_FOLDER = "^src/[^/]+/";

/** Root leaf modules a transport may use. */
const TRANSPORT_LEAVES = "^src/(errors|config|logger|version|prompts|ids|lookup)\\.ts$";

/** Every root module of src except the two that wire everything. */
const ROOT_LEAVES = "^src/(?!(app|main)\\.ts$)[^/]+\\.ts$";

/** The contract modules of core (no I/O) that a domain may import. */
const CORE_CONTRACT = "^src/core/(scope|paging|endpoint|tools|raw-body|validate-input)\\.ts$";

/**
 * Dependency types of Node builtins and npm packages. Allow-list rules below
 * only judge imports of the project's own files, so they exclude these.
 */
const PACKAGES_AND_BUILTINS = [
  "core",
  "npm",
  "npm-dev",
  "npm-optional",
  "npm-peer",
  "npm-bundled",
  "npm-no-pkg",
  "npm-unknown",
];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "transport-imports-only-core-access-leaves",
      severity: "error",
      comment:
        "Transports are thin wire code: they turn a request into (principal, action, input, project) and call core. " +
        "They may use core, access, the errors/config/logger/version/prompts/ids/lookup leaves and each other - never a domain, the store or tools/.",
      from: { path: "^src/transports/" },
      to: {
        dependencyTypesNot: PACKAGES_AND_BUILTINS,
        pathNot: ["^src/(core|access|transports)/", TRANSPORT_LEAVES],
      },
    },
    {
      name: "domain-not-to-outer-layers",
      severity: "error",
      comment:
        "Domains are driven from outside (tools/, transports, cli, app.ts) and must not know who calls them, " +
        "so the same domain code serves MCP, REST and the CLI.",
      from: { path: ANY_TOP_LEVEL_FOLDER, pathNot: NOT_DOMAINS },
      to: { path: ["^src/(transports|cli|console)/", "^src/(app|main)\\.ts$", "^tools/"] },
    },
    {
      name: "console-not-to-store",
      severity: "error",
      comment:
        "The console reads and changes everything through the service pipeline as the session's principal (one way in), " +
        "so it never touches the store; domain and tools/ modules it may import for their types and pure helpers.",
      from: { path: "^src/console/" },
      to: { path: "^src/store/" },
    },
    {
      name: "only-wiring-imports-console",
      severity: "error",
      comment: "The console is mounted by app.ts only; the HTTP transport takes it as a part and never imports it.",
      from: { pathNot: ["^src/console/", "^src/app\\.ts$"] },
      to: { path: "^src/console/" },
    },
    {
      name: "domain-imports-only-core-contract",
      severity: "error",
      comment:
        "From core a domain may use only the contract modules without I/O (scope, paging, endpoint, tools, and raw-body " +
        "and validate-input, with which a large body is parsed and checked as the pipeline would, off the serving thread); " +
        "the catalog and the service pipeline sit above the domains.",
      from: { path: ANY_TOP_LEVEL_FOLDER, pathNot: NOT_DOMAINS },
      to: { path: "^src/core/", pathNot: CORE_CONTRACT },
    },
    {
      name: "store-imports-only-store-and-leaves",
      severity: "error",
      comment:
        "The store is the bottom layer: SQL and rows only. It may use itself, errors, ids, vocabulary, logger, " +
        "package-root (to find its migrations), " +
        "Node builtins and npm packages - nothing that could pull a domain or the wire into the data layer.",
      from: { path: "^src/store/" },
      to: {
        dependencyTypesNot: PACKAGES_AND_BUILTINS,
        pathNot: ["^src/store/", "^src/(errors|ids|vocabulary|logger|package-root)\\.ts$"],
      },
    },
    {
      name: "only-store-imports-db-driver",
      severity: "error",
      comment:
        "One libSQL client, opened and serialized by src/store/db.ts; any other importer of the driver " +
        "would bypass the lane, the pragmas and the error mapping.",
      from: { pathNot: "^src/store/" },
      to: { path: ["(^|/)node_modules/(@libsql/[^/]+|libsql)/", "^(@libsql/[^/]+|libsql)$"] },
    },
    {
      name: "core-not-to-domains-or-transports",
      severity: "error",
      comment:
        "Core (contract, catalog, service pipeline) sits below the domains and the transports; " +
        "it may use core, access, store and the root leaves, never a domain, a transport, cli, tools/, app.ts or main.ts.",
      from: { path: "^src/core/" },
      to: {
        dependencyTypesNot: PACKAGES_AND_BUILTINS,
        pathNot: ["^src/(core|access|store)/", ROOT_LEAVES],
      },
    },
    {
      name: "no-circular",
      severity: "error",
      comment:
        "Modules that import each other, even only for types, are one unit in two files; " +
        "break the cycle by moving the shared part down.",
      from: {},
      to: { circular: true },
    },
    {
      name: "not-to-unresolvable",
      severity: "error",
      comment:
        "An import the checker cannot resolve escapes every other rule, so it is an error in itself.",
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: "(^|/)node_modules/" },
    // .ts sources import each other with .js suffixes (NodeNext); resolve them
    // the way tsc does.
    tsConfig: { fileName: "tsconfig.json" },
    // see `import type` and type-only re-exports, which tsc erases
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      mainFields: ["module", "main", "types", "typings"],
      extensions: [".ts", ".tsx", ".mts", ".d.ts", ".js", ".mjs", ".cjs", ".json"],
    },
    skipAnalysisNotInRules: true,
  },
};
