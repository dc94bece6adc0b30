import { Command, Option } from "commander";
import { createApiKey } from "../access/create-api-key.js";
import { mintSession } from "../access/session-token.js";
import { AppError } from "../errors.js";
import type { App } from "../app.js";
import { listApiKeys, revokeApiKey } from "../store/access/api-keys.js";
import type { KeyTier } from "../store/access/api-keys.js";
import { ACCESS_LEVELS, setMembership } from "../store/access/memberships.js";
import type { AccessLevel } from "../store/access/memberships.js";
import { createProject, getProject } from "../store/access/projects.js";
import { createUser, findUser } from "../store/access/users.js";
import type { User } from "../store/access/users.js";
import { printJson, withApp, withStoreOptions } from "./store-options.js";

async function userOf(app: App, idOrName: string): Promise<User> {
  const user = await findUser(app.deps.db, idOrName);
  if (!user) throw new AppError("not_found", { message: `user not found: ${idOrName}` });
  return user;
}

/** `pks user create NAME` */
export function userCommand(): Command {
  const cmd = new Command("user").description("manage users");
  withStoreOptions(cmd.command("create <name>").description("create a user")).action(async (name: string, o) => {
    await withApp(o, async (app) => printJson(await createUser(app.deps.db, name)));
  });
  return cmd;
}

/** `pks project create NAME [--parent ID] [--owner USER]` */
export function projectCommand(): Command {
  const cmd = new Command("project").description("manage projects");
  withStoreOptions(cmd.command("create <name>").description("create a project"))
    .option("--parent <projectId>", "parent project: its rows are visible in this one")
    .option("--owner <user>", "user (id or name) made owner of the new project")
    .action(async (name: string, o) => {
      await withApp(o, async (app) => {
        const project = await app.deps.db.transaction(async (tx) => {
          if (o.parent && !(await getProject(tx, o.parent))) throw new AppError("project_not_found");
          const owner = o.owner ? await findUser(tx, o.owner) : undefined;
          if (o.owner && !owner) throw new AppError("not_found", { message: `user not found: ${o.owner}` });
          const p = await createProject(tx, { name, parentId: o.parent ?? null });
          if (owner) await setMembership(tx, p.projectId, owner.userId, "owner");
          return p;
        });
        printJson(project);
      });
    });
  return cmd;
}

/** `pks member add --project P --user U --level viewer|editor|owner` */
export function memberCommand(): Command {
  const cmd = new Command("member").description("manage project memberships");
  withStoreOptions(cmd.command("add").description("grant or change a user's access to a project"))
    .requiredOption("--project <projectId>")
    .requiredOption("--user <user>", "user id or name")
    .addOption(new Option("--level <level>").choices([...ACCESS_LEVELS]).makeOptionMandatory())
    .action(async (o) => {
      await withApp(o, async (app) => {
        const user = await userOf(app, o.user);
        if (!(await getProject(app.deps.db, o.project))) throw new AppError("project_not_found");
        await setMembership(app.deps.db, o.project, user.userId, o.level as AccessLevel);
        printJson({ projectId: o.project, userId: user.userId, level: o.level });
      });
    });
  return cmd;
}

/** `pks key create|list|revoke` */
export function keyCommand(): Command {
  const cmd = new Command("key").description("manage API keys");
  withStoreOptions(cmd.command("create").description("mint an API key; its plaintext is printed once"))
    .requiredOption("--user <user>", "owner (id or name)")
    .option("--name <name>", "a label for the key")
    .option("--project <projectId>", "bind the key to one project")
    .addOption(new Option("--tier <tier>").choices(["standard", "submit"]).default("standard"))
    .option("--type <typeEntityId>", "named-object type a submit key files records under")
    .action(async (o) => {
      await withApp(o, async (app) => {
        const user = await userOf(app, o.user);
        const created = await createApiKey(app.deps.db, {
          userId: user.userId,
          name: o.name,
          tier: o.tier as KeyTier,
          projectId: o.project,
          boundTypeId: o.type,
        });
        printJson({ ...created.key, apiKey: created.plaintext });
      });
    });
  withStoreOptions(cmd.command("list").description("list keys (never their plaintext)"))
    .option("--user <user>", "only this user's keys")
    .action(async (o) => {
      await withApp(o, async (app) => {
        const userId = o.user ? (await userOf(app, o.user)).userId : undefined;
        printJson((await listApiKeys(app.deps.db, userId)).map(({ hash: _h, ...k }) => k));
      });
    });
  withStoreOptions(cmd.command("revoke <keyId>").description("revoke a key; it is refused from the next request on"))
    .action(async (keyId: string, o) => {
      await withApp(o, async (app) => printJson({ keyId, revoked: await revokeApiKey(app.deps.db, keyId) }));
    });
  return cmd;
}

/** `pks session create --user U` */
export function sessionCommand(): Command {
  const cmd = new Command("session").description("manage sessions");
  withStoreOptions(cmd.command("create").description("mint a 12-hour session token for a user"))
    .requiredOption("--user <user>", "user id or name")
    .action(async (o) => {
      await withApp(o, async (app) => {
        const user = await userOf(app, o.user);
        printJson(await mintSession(app.deps.db, { userId: user.userId, keyId: null }, new Date(app.deps.clock())));
      });
    });
  return cmd;
}
