import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApiKey } from "../../src/access/create-api-key.js";
import { createApp } from "../../src/app.js";
import type { App, AppOptions } from "../../src/app.js";
import { loadConfig } from "../../src/config.js";
import { setMembership } from "../../src/store/access/memberships.js";
import type { AccessLevel } from "../../src/store/access/memberships.js";
import { createProject } from "../../src/store/access/projects.js";
import { createUser } from "../../src/store/access/users.js";
import { testActions } from "./test-catalog.js";

/** A clock tests can move. */
export function fakeClock(start = Date.UTC(2026, 0, 1)) {
  let now = start;
  const clock = () => now;
  clock.advance = (ms: number) => {
    now += ms;
  };
  return clock;
}

export interface TestWorld {
  app: App;
  root: string;
  projectId: string;
  otherProjectId: string;
  keys: { owner: string; editor: string; viewer: string; outsider: string; bound: string; submit: string };
  userIds: Record<"owner" | "editor" | "viewer" | "outsider", string>;
  close(): Promise<void>;
}

/**
 * A real app on a real libSQL database (in memory unless `dbUrl` is given),
 * seeded with one project, users at each access level and their keys.
 */
export async function createTestWorld(
  options: AppOptions & { dbUrl?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<TestWorld> {
  const root = mkdtempSync(join(tmpdir(), "pks-test-"));
  const base = { PKS_LOG: "silent", PKS_THREAD_BUILD: process.env.PKS_THREAD_BUILD };
  const config = loadConfig({ root, db: options.dbUrl ?? ":memory:" }, { ...base, ...options.env });
  const app = await createApp(config, { actions: testActions, checkOutput: true, ...options });
  const db = app.deps.db;
  const project = await createProject(db, { name: "main" });
  const other = await createProject(db, { name: "other" });
  const userIds = {} as TestWorld["userIds"];
  const keys = {} as TestWorld["keys"];
  const levels: Array<[keyof TestWorld["userIds"], AccessLevel | undefined]> = [
    ["owner", "owner"],
    ["editor", "editor"],
    ["viewer", "viewer"],
    ["outsider", undefined],
  ];
  for (const [name, level] of levels) {
    const user = await createUser(db, name);
    userIds[name] = user.userId;
    if (level) await setMembership(db, project.projectId, user.userId, level);
    keys[name] = (await createApiKey(db, { userId: user.userId })).plaintext;
  }
  await setMembership(db, other.projectId, userIds.outsider, "owner");
  keys.bound = (await createApiKey(db, { userId: userIds.editor, projectId: project.projectId })).plaintext;
  keys.submit = (
    await createApiKey(db, { userId: userIds.editor, projectId: project.projectId, tier: "submit", boundTypeId: "ent_form" })
  ).plaintext;
  return {
    app,
    root,
    projectId: project.projectId,
    otherProjectId: other.projectId,
    keys,
    userIds,
    async close() {
      await app.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** Sends a request to the app with no server running. */
export function send(
  world: TestWorld,
  path: string,
  init: RequestInit & { key?: string; project?: string; json?: unknown } = {},
): Promise<Response> {
  const headers = new Headers(init.headers);
  if (init.key) headers.set("authorization", `Bearer ${init.key}`);
  if (init.project) headers.set("x-project-id", init.project);
  let body = init.body;
  if (init.json !== undefined) {
    headers.set("content-type", "application/json");
    body = JSON.stringify(init.json);
  }
  if (!headers.has("host")) headers.set("host", "127.0.0.1:8787");
  return Promise.resolve(world.app.http.request(`http://127.0.0.1:8787${path}`, { ...init, headers, body }));
}
