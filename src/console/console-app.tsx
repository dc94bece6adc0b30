/**
 * The people's console, served by `pks serve` at `/` beside the API: sign
 * in with a key (traded for a session), pick a project, read the corpus,
 * search, settle proposed types, edit schemas, read and generate artifacts,
 * manage keys. Server-rendered pages with one small script for following a
 * task; every read and change is an endpoint or action run through the
 * service pipeline as the session's principal (see `Visit`).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Context } from "hono";
import { Hono } from "hono";
import type { Child } from "hono/jsx";
import type { Principal } from "../access/principal.js";
import type { AnyEndpoint, Operation } from "../core/endpoint.js";
import type { Service } from "../core/service.js";
import { AppError, isAppError, toAppError } from "../errors.js";
import { log } from "../logger.js";
import { packageRoot } from "../package-root.js";
import { errorResponse } from "../transports/http/error-response.js";
import { peerAddress } from "../transports/http/http-env.js";
import { consoleOperations } from "./console-operations.js";
import {
  clearSessionCookie,
  clearSignInNonce,
  CSRF_FIELD,
  csrfToken,
  readForm,
  sameOrigin,
  sameToken,
  securityHeaders,
  sessionToken,
  setSessionCookie,
  signInNonce,
  signInNonceCookie,
} from "./guard.js";
import { ActionForm, Layout, Notice, paths } from "./layout.js";
import type { Frame } from "./layout.js";
import { isRedirect } from "./page.js";
import type { PageContext, PageResult, ProjectView } from "./page.js";
import { artifactPage, artifactsPage, generateArtifact, taskPage, taskStatus } from "./pages/artifacts.js";
import { cellPage, filePage, filesPage, overviewPage } from "./pages/graph.js";
import { keysPage, mintKey, revokeKey } from "./pages/keys.js";
import { searchPage } from "./pages/search.js";
import { filledCellPage, proposalsPage, saveSchema, typePage, typesPage } from "./pages/types.js";
import { Visit } from "./visit.js";

export interface ConsoleParts {
  service: Service;
  /** The REST endpoints, looked up by name: the console calls them as the pipeline runs them. */
  endpoints: readonly AnyEndpoint[];
}

/** Paths the console answers; any other unknown path keeps the API's JSON 404. */
const CONSOLE_PATH = /^\/($|sign-in$|sign-out$|projects$|p\/|assets\/)/;

type ProjectHandler = (ctx: PageContext, c: Context) => Promise<PageResult>;
type FormHandler = (ctx: PageContext, form: URLSearchParams, c: Context) => Promise<PageResult>;

/** The console as the HTTP app mounts it: its requests, and which paths are its own. */
export interface ConsoleApp {
  /** `env` is the server's (Node's socket), passed on so sign-in failures count against the peer's address. */
  fetch(request: Request, env?: unknown): Response | Promise<Response>;
  /** Whether a path is the console's (the host guard leaves `Origin: null` on these to the console's own checks). */
  servesPath(path: string): boolean;
}

/** The console, to mount on the HTTP app after the API's routes. */
export function createConsole(parts: ConsoleParts): ConsoleApp {
  const app = consoleRoutes(parts);
  return { fetch: (request, env) => app.fetch(request, env), servesPath: (path) => CONSOLE_PATH.test(path) };
}

function consoleRoutes(parts: ConsoleParts): Hono {
  const callers = new Callers(parts);
  const app = new Hono();
  mountFrame(app, loadAssets());
  mountSession(app, callers);
  mountProjectPages(app, callers);
  mountChanges(app, callers);
  return app;
}

/** Who is calling, and the project pages they may open: the pipeline judges both, as for any API call. */
class Callers {
  readonly #service: Service;
  readonly #operations: Map<string, Operation>;

  constructor(parts: ConsoleParts) {
    this.#service = parts.service;
    this.#operations = new Map<string, Operation>([...parts.endpoints, ...consoleOperations].map((op) => [op.name, op]));
  }

  /** The signed-in caller, or undefined (no cookie, or a session the pipeline refuses). */
  async signedIn(c: Context): Promise<{ token: string; principal: Principal } | undefined> {
    const token = sessionToken(c);
    if (!token) return undefined;
    try {
      return { token, principal: await this.#service.admit(`Bearer ${token}`, ["session"]) };
    } catch (err) {
      if (isAppError(err) && err.status === 401) return undefined;
      throw err;
    }
  }

  /** A visit of the caller's outside any project (the project list, ending the session). */
  visit(principal: Principal): Visit {
    return new Visit({ service: this.#service, operations: this.#operations, principal });
  }

  async projectsOf(principal: Principal): Promise<ProjectView[]> {
    return (await this.visit(principal).call<{ projects: ProjectView[] }>("projects.list")).projects;
  }

  /** Trades a key for a session, as `POST /sessions` does. */
  async createSession(key: string, address: string | undefined): Promise<{ sessionToken: string; expiresAt: string }> {
    const caller = { authorization: `Bearer ${key}`, address };
    return (await this.#service.run(this.#operations.get("sessions.create")!, { caller, input: () => ({}) })) as { sessionToken: string; expiresAt: string };
  }

  /** A project page: signed in, a member of the project, then the handler. */
  async inProject(c: Context, handler: (ctx: PageContext) => Promise<PageResult | Response>, signed?: { token: string; principal: Principal }): Promise<Response> {
    const who = signed ?? (await this.signedIn(c));
    if (!who) return c.redirect("/sign-in", 303);
    const projectId = c.req.param("projectId") ?? "";
    const project = (await this.projectsOf(who.principal)).find((p) => p.projectId === projectId);
    if (!project) return page(c, { title: "Project not found", signedIn: true }, <p>No project of yours has this address.</p>, 404);
    const visit = new Visit({ service: this.#service, operations: this.#operations, principal: who.principal, projectId, level: project.level });
    const ctx: PageContext = { visit, csrf: csrfToken(who.token), project, url: new URL(c.req.url) };
    const result = await handler(ctx);
    if (result instanceof Response) return result;
    if (isRedirect(result)) return c.redirect(result.redirect, 303);
    return page(c, { ...result.frame, project, signedIn: true }, result.body, result.status ?? 200);
  }
}

/** Security headers on the console's paths, its error pages and its three static assets. */
function mountFrame(app: Hono, assets: { css: string; js: string; icon: string }): void {
  app.use("*", async (c, next) => {
    if (!CONSOLE_PATH.test(c.req.path)) return next();
    return securityHeaders(c, next);
  });
  app.notFound((c) => (CONSOLE_PATH.test(c.req.path) ? page(c, { title: "Not found" }, <p>There is no page here.</p>, 404) : errorResponse(c, new AppError("not_found"))));
  app.onError((err, c) => {
    log.error("console page failed", { path: c.req.path, error: err });
    return page(c, { title: "Something went wrong" }, <p>The page could not be made. Try again.</p>, 500);
  });
  app.get("/assets/console.css", (c) => c.body(assets.css, 200, { "Content-Type": "text/css; charset=utf-8", "Cache-Control": "no-cache" }));
  app.get("/assets/console.js", (c) => c.body(assets.js, 200, { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "no-cache" }));
  app.get("/assets/icon.svg", (c) => c.body(assets.icon, 200, { "Content-Type": "image/svg+xml", "Cache-Control": "no-cache" }));
}

/** The home redirect, signing in and out, and the project list. */
function mountSession(app: Hono, callers: Callers): void {
  app.get("/", (c) =>
    guarded(c, async () => {
      const who = await callers.signedIn(c);
      if (!who) return c.redirect("/sign-in", 303);
      const projects = await callers.projectsOf(who.principal);
      return c.redirect(projects.length === 1 ? paths.project(projects[0]!.projectId) : "/projects", 303);
    }),
  );
  app.get("/sign-in", async (c) => {
    if (await callers.signedIn(c)) return c.redirect("/", 303);
    return signInPage(c, c.req.query("signed-out") !== undefined ? "signed-out" : undefined);
  });
  app.post("/sign-in", (c) => signIn(c, callers));
  app.get("/sign-out", (c) =>
    guarded(c, async () => {
      const who = await callers.signedIn(c);
      if (!who) return c.redirect("/sign-in", 303);
      return page(c, { title: "Sign out", section: "sign-out", signedIn: true }, <SignOutForm csrf={csrfToken(who.token)} />);
    }),
  );
  app.post("/sign-out", (c) => guarded(c, () => signOut(c, callers)));
  app.get("/projects", (c) =>
    guarded(c, async () => {
      const who = await callers.signedIn(c);
      if (!who) return c.redirect("/sign-in", 303);
      return page(c, { title: "Projects", signedIn: true }, <ProjectList projects={await callers.projectsOf(who.principal)} />);
    }),
  );
}

/** `POST /sign-in`: a nonce-checked form trading a key for a session cookie; a refused key gets the form again with why. */
async function signIn(c: Context, callers: Callers): Promise<Response> {
  if (!sameOrigin(c)) return refused(c);
  const form = await readForm(c).catch(() => undefined);
  if (!form || !sameToken(form.get(CSRF_FIELD) ?? undefined, signInNonceCookie(c))) return refused(c);
  try {
    const minted = await callers.createSession((form.get("apiKey") ?? "").trim(), peerAddress(c));
    clearSignInNonce(c);
    setSessionCookie(c, minted.sessionToken, minted.expiresAt);
    return c.redirect("/", 303);
  } catch (err) {
    const e = toAppError(err);
    if (e.status === 401) return signInPage(c, "refused", 401);
    if (e.status === 403) return signInPage(c, "tier", 403);
    if (e.status === 429) return signInPage(c, "busy", 429);
    throw err;
  }
}

/** `POST /sign-out`: ends the session on the server (CSRF-checked), then clears the cookie. */
async function signOut(c: Context, callers: Callers): Promise<Response> {
  const checked = await checkedForm(c);
  if (!checked) return refused(c);
  const who = await callers.signedIn(c);
  if (who) await callers.visit(who.principal).call("sessions.end", { body: { sessionToken: checked.token } });
  clearSessionCookie(c);
  return c.redirect("/sign-in?signed-out", 303);
}

function SignOutForm(props: { csrf: string }) {
  return (
    <>
      <p>Signing out ends this session on the server: the browser's session stops working at once.</p>
      <ActionForm action="/sign-out" csrf={props.csrf} label="Sign out" />
    </>
  );
}

function ProjectList(props: { projects: ProjectView[] }) {
  if (props.projects.length === 0) return <p>Your account is a member of no project yet.</p>;
  return (
    <ul class="plain">
      {props.projects.map((p) => (
        <li>
          <a href={paths.project(p.projectId)}>{p.name}</a> <span class="meta">({p.level})</span>
        </li>
      ))}
    </ul>
  );
}

/** The project pages people read (GET), and the task status the console's script polls. */
function mountProjectPages(app: Hono, callers: Callers): void {
  const read = (path: string, handler: ProjectHandler) => app.get(path, (c) => guarded(c, () => callers.inProject(c, (ctx) => handler(ctx, c))));
  read("/p/:projectId", overviewPage);
  read("/p/:projectId/files", filesPage);
  read("/p/:projectId/files/:fileId", (ctx, c) => filePage(ctx, c.req.param("fileId")!));
  read("/p/:projectId/cells/:cellId", (ctx, c) => cellPage(ctx, c.req.param("cellId")!));
  read("/p/:projectId/search", searchPage);
  read("/p/:projectId/proposals", proposalsPage);
  read("/p/:projectId/types", typesPage);
  read("/p/:projectId/types/:entityId", (ctx, c) => typePage(ctx, c.req.param("entityId")!));
  read("/p/:projectId/types/:entityId/members/:memberId", (ctx, c) => filledCellPage(ctx, c.req.param("entityId")!, c.req.param("memberId")!));
  read("/p/:projectId/artifacts", artifactsPage);
  read("/p/:projectId/artifacts/:artifactId", (ctx, c) => artifactPage(ctx, c.req.param("artifactId")!));
  read("/p/:projectId/tasks/:taskId", (ctx, c) => taskPage(ctx, c.req.param("taskId")!));
  read("/p/:projectId/keys", (ctx) => keysPage(ctx));
  app.get("/p/:projectId/tasks/:taskId/status", (c) =>
    guarded(c, async () => {
      const who = await callers.signedIn(c);
      if (!who) return c.json({ error: "signed out" }, 401);
      return callers.inProject(c, async (ctx) => c.json(await taskStatus(ctx, c.req.param("taskId")!)), who);
    }),
  );
}

/**
 * The changes (POST): from this origin, with the session's CSRF token, else
 * 403 and nothing runs. The pipeline then judges the caller as for any call.
 */
function mountChanges(app: Hono, callers: Callers): void {
  const change = (path: string, handler: FormHandler) =>
    app.post(path, (c) =>
      guarded(c, async () => {
        const checked = await checkedForm(c);
        return checked ? callers.inProject(c, (ctx) => handler(ctx, checked.form, c)) : refused(c);
      }),
    );
  change("/p/:projectId/proposals/:proposalId/:decision{confirm|reject}", async (ctx, _form, c) => {
    const decision = c.req.param("decision")!;
    await ctx.visit.call(`category-proposals.${decision}`, { params: { proposalId: c.req.param("proposalId")! }, body: {} });
    return { redirect: `${paths.proposals(ctx.project.projectId)}?done=${decision === "confirm" ? "confirmed" : "rejected"}` };
  });
  change("/p/:projectId/types/:entityId/schema", (ctx, form, c) => saveSchema(ctx, c.req.param("entityId")!, form));
  change("/p/:projectId/types/:entityId/schema/:decision{approve|reject}", async (ctx, _form, c) => {
    const decision = c.req.param("decision")!;
    const entityId = c.req.param("entityId")!;
    await ctx.visit.call(`entity-schema.${decision}`, { params: { entityId }, body: {} });
    return { redirect: `${paths.type(ctx.project.projectId, entityId)}?${decision === "approve" ? "approved=1" : "dropped=1"}` };
  });
  change("/p/:projectId/artifacts/generate", (ctx, form) => generateArtifact(ctx, form));
  change("/p/:projectId/keys", (ctx, form) => mintKey(ctx, form));
  change("/p/:projectId/keys/:keyId/revoke", (ctx, _form, c) => revokeKey(ctx, c.req.param("keyId")!));
}

/**
 * Runs a console handler and turns what the pipeline refused into a page:
 * 401 (the session ended) goes back to sign-in, every other refusal is a
 * page with the API's own message and status.
 */
async function guarded(c: Context, run: () => Promise<Response>): Promise<Response> {
  try {
    return await run();
  } catch (err) {
    if (!isAppError(err) || err.status >= 500) throw err;
    if (err.status === 401) {
      clearSessionCookie(c);
      return c.redirect("/sign-in", 303);
    }
    for (const [k, v] of Object.entries(err.headers)) c.header(k, v);
    const title = err.status === 404 ? "Not found" : err.status === 403 ? "Not allowed" : err.status === 429 ? "Too many requests" : "Refused";
    return page(c, { title, signedIn: sessionToken(c) !== undefined }, <Notice kind="problem">{err.message}</Notice>, err.status);
  }
}

/** A signed-in change's form: from this origin, with the session's CSRF token; undefined when either check fails. */
async function checkedForm(c: Context): Promise<{ token: string; form: URLSearchParams } | undefined> {
  const token = sessionToken(c);
  if (!sameOrigin(c) || !token) return undefined;
  const form = await readForm(c).catch(() => undefined);
  if (!form || !sameToken(form.get(CSRF_FIELD) ?? undefined, csrfToken(token))) return undefined;
  return { token, form };
}

/** 403 for a change without this origin's CSRF token: nothing ran. */
function refused(c: Context): Response {
  return page(
    c,
    { title: "Not allowed" },
    <Notice kind="problem">This form could not be checked (it came from elsewhere, or the page is out of date). Nothing was changed; reload the page and try again.</Notice>,
    403,
  );
}

function signInPage(c: Context, state?: "refused" | "tier" | "busy" | "signed-out", status = 200): Response {
  const nonce = signInNonce(c);
  const message =
    state === "refused"
      ? "That key was not accepted. Check it and try again."
      : state === "tier"
        ? "This key cannot open a session: it is a submit-only key."
        : state === "busy"
          ? "Too many requests with this key; wait a minute and try again."
          : undefined;
  return page(
    c,
    { title: "Sign in" },
    <>
      {state === "signed-out" ? <Notice kind="ok">You are signed out.</Notice> : null}
      {message ? <Notice kind="problem">{message}</Notice> : null}
      <p>Paste an API key. The server trades it for a session of 12 hours; the browser keeps only the session, never the key.</p>
      <form method="post" action="/sign-in" class="stack">
        <input type="hidden" name={CSRF_FIELD} value={nonce} />
        <label for="api-key">API key</label>
        <input id="api-key" name="apiKey" type="password" autocomplete="off" required spellcheck={false} />
        <div>
          <button type="submit">Sign in</button>
        </div>
      </form>
    </>,
    status,
  );
}

function page(c: Context, frame: Frame, body: Child, status = 200): Response {
  const html = `<!DOCTYPE html>${(<Layout {...frame}>{body}</Layout>).toString()}`;
  return c.html(html, status as 200);
}

/** The stylesheet, the script and the icon, read once from the package (they ship in `src/console/static`). */
function loadAssets(): { css: string; js: string; icon: string } {
  const dir = join(packageRoot(), "src", "console", "static");
  const read = (name: string) => readFileSync(join(dir, name), "utf8");
  return { css: read("console.css"), js: read("console.js"), icon: read("icon.svg") };
}
