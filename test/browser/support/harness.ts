/**
 * The browser suite's harness: a real `pks serve` (from source, on a temp
 * root, files sent over HTTP) and a real Chromium driving its console.
 *
 * Why playwright-core: it is the driver without the browser downloads
 * (`playwright` fetches its own builds on install; `-core` fetches nothing
 * and launches the executable it is given, here Debian's `chromium`), it
 * speaks the Chrome DevTools protocol the Debian build serves, and its
 * locators find elements by role, label and text with auto-waiting, so the
 * tests read like what a person does and need no sleeps. puppeteer-core
 * would drive the same browser but lacks the role/label locators.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { spawnPks, spawnServe } from "../../support/spawn-pks.js";
import { until } from "../../support/until.js";
import type { DomWindow } from "./dom.js";

/** Where the suite writes its screenshots (git-ignored). */
export const SCREENSHOT_DIR = fileURLToPath(new URL("../screenshots/", import.meta.url));

/** The two widths every page is checked and photographed at. */
export const WIDTHS = [360, 1440] as const;


/** A running `pks serve` with its owner key, and a way to call its API. */
export interface Served {
  /** `http://127.0.0.1:PORT`, where the console and `/v1` both live. */
  origin: string;
  projectId: string;
  /** The owner key `pks serve` printed on first start (bound to the project). */
  key: string;
  /** Calls the REST API with the owner key (or a session token). */
  api<T>(method: string, path: string, json?: unknown, token?: string): Promise<{ status: number; body: T }>;
  /** Sends text files through `POST …/ingest` and waits until they are read. */
  ingest(files: ReadonlyArray<readonly [path: string, text: string]>): Promise<void>;
  /** A session token for the owner, for reads the API serves to sessions only. */
  session(): Promise<string>;
  /** Runs `pks ARGS --root ROOT` (an admin command on the served database) and parses the JSON it prints. */
  admin<T>(...args: string[]): Promise<T>;
  close(): Promise<void>;
}

/** Starts `pks serve` on a fresh root (port 0, no folder sync), with `env` added to its environment. */
export async function startServer(env: NodeJS.ProcessEnv = {}): Promise<Served> {
  // The served folder's name is the project's name, which every page shows.
  const base = mkdtempSync(join(tmpdir(), "pks-browser-"));
  const root = join(base, "team-handbook");
  mkdirSync(root);
  const starting = spawnServe(root, { PKS_RATE_LIMIT: "100000", ...env }, 60_000);
  const served = await starting.ready.catch((e: unknown) => {
    rmSync(base, { recursive: true, force: true });
    throw e;
  });
  const origin = new URL(served.rest).origin;
  const key = served.key!;
  const projectId = served.projectId;

  const api = async <T>(method: string, path: string, json?: unknown, token = key) => {
    const res = await fetch(`${origin}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(json === undefined ? {} : { "content-type": "application/json" }) },
      body: json === undefined ? undefined : JSON.stringify(json),
    });
    return { status: res.status, body: (await res.json()) as T };
  };

  const ingest = async (files: ReadonlyArray<readonly [string, string]>) => {
    const body = { files: files.map(([path, text]) => ({ path, content: Buffer.from(text).toString("base64") })) };
    const sent = await api<unknown>("POST", `/v1/projects/${projectId}/ingest`, body);
    if (sent.status !== 200) throw new Error(`ingest answered ${sent.status}: ${JSON.stringify(sent.body)}`);
    await until(
      () => api<{ state: string }>("GET", `/v1/projects/${projectId}/ingest`),
      (r) => r.body.state === "idle",
      60_000,
      "the reading to finish",
    );
  };

  const session = async () => {
    const made = await api<{ sessionToken: string }>("POST", "/v1/sessions");
    if (made.status !== 201) throw new Error(`POST /v1/sessions answered ${made.status}`);
    return made.body.sessionToken;
  };

  const admin = async <T>(...args: string[]): Promise<T> => {
    const child = spawnPks([...args, "--root", root]);
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    if (code !== 0) throw new Error(`pks ${args.join(" ")} exited with ${code}: ${err.slice(-1000)}`);
    return JSON.parse(out) as T;
  };

  return {
    origin,
    projectId,
    key,
    api,
    ingest,
    session,
    admin,
    close: async () => {
      await served.kill("SIGTERM");
      rmSync(base, { recursive: true, force: true });
    },
  };
}

/** Launches the given Chromium headless. */
export function launch(executablePath: string): Promise<Browser> {
  return chromium.launch({ executablePath, headless: true });
}

/**
 * What the browser did while a test ran, gathered from every page of a
 * context: each request's URL, each dialog (alert/confirm/prompt, dismissed
 * at once), each uncaught page error and console error (CSP violations are
 * reported as console errors), and each document answer's
 * Content-Security-Policy.
 */
export interface Watch {
  requests: string[];
  dialogs: string[];
  errors: string[];
  documents: Array<{ url: string; status: number; csp: string | undefined; frameOptions: string | undefined }>;
}

/** A fresh browser context (its own cookies and storage) whose pages are all watched. */
export async function watchedContext(browser: Browser): Promise<{ context: BrowserContext; watch: Watch; newPage(): Promise<Page> }> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  // A missing element fails a test in 15 s rather than playwright's 30, so one broken page does not eat the suite's time.
  context.setDefaultTimeout(15_000);
  const watch: Watch = { requests: [], dialogs: [], errors: [], documents: [] };
  context.on("request", (r) => watch.requests.push(r.url()));
  context.on("response", (r) => {
    if (r.request().resourceType() !== "document") return;
    const headers = r.headers();
    watch.documents.push({
      url: r.url(),
      status: r.status(),
      csp: headers["content-security-policy"],
      frameOptions: headers["x-frame-options"],
    });
  });
  const attached = new WeakSet<Page>();
  const attach = (page: Page) => {
    if (attached.has(page)) return;
    attached.add(page);
    page.on("dialog", (d) => {
      watch.dialogs.push(`${d.type()}: ${d.message()}`);
      void d.dismiss().catch(() => undefined);
    });
    page.on("pageerror", (e) => watch.errors.push(`page error: ${e.message}`));
    page.on("console", (m) => {
      if (m.type() !== "error") return;
      const at = m.location().url;
      // Chromium asks every origin for /favicon.ico on its own; a 404 there is no fault of a page.
      if (new URL(at, "http://x").pathname === "/favicon.ico") return;
      watch.errors.push(`console error: ${m.text()}${at ? ` (${at})` : ""}`);
    });
  };
  context.on("page", attach);
  return {
    context,
    watch,
    newPage: async () => {
      const page = await context.newPage();
      attach(page);
      return page;
    },
  };
}

/**
 * The errors of a watch that are faults: Chromium also logs "Failed to load
 * resource" for a page answered with a 4xx status on purpose (a schema
 * conflict is a 409 page), which the document list records with its status;
 * a stylesheet or script that failed to load stays an error.
 */
export function faults(watch: Watch): string[] {
  const pages = new Set(watch.documents.filter((d) => d.status >= 400 && d.status < 500).map((d) => d.url));
  return watch.errors.filter((e) => {
    const m = /^console error: Failed to load resource: .* \((.+)\)$/.exec(e);
    return !(m && pages.has(m[1]!));
  });
}

/** The request URLs of a watch that left the server's origin. */
export function foreignRequests(watch: Watch, origin: string): string[] {
  return watch.requests.filter((u) => {
    try {
      return new URL(u).origin !== origin;
    } catch {
      return true;
    }
  });
}

/**
 * Presses Tab until `target` has the focus (at most `max` presses), so a
 * test proves the control is reachable by keyboard alone.
 */
export async function tabTo(page: Page, target: Locator, max = 80): Promise<void> {
  const handle = await target.elementHandle();
  if (!handle) throw new Error("tabTo: no such element");
  for (let i = 0; i < max; i++) {
    if (await handle.evaluate((el) => el === (globalThis as unknown as DomWindow).document.activeElement)) return;
    await page.keyboard.press("Tab");
  }
  throw new Error(`tabTo: not reached after ${max} presses of Tab`);
}

/**
 * Photographs the page at both widths (full page) into
 * `SCREENSHOT_DIR/<name>-<width>.png`, and returns the horizontal overflow
 * at each width (document width beyond the viewport, in CSS pixels): a page
 * readable at 360 px scrolls vertically only. The viewport is left at
 * 1,440 px.
 */
export async function shoot(page: Page, name: string): Promise<Record<number, number>> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  // A page's text can be read before its stylesheet has loaded; measure and photograph it styled.
  await page.waitForLoadState("load");
  const overflow: Record<number, number> = {};
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: width === 360 ? 740 : 900 });
    overflow[width] = await page.evaluate(() => {
      const root = (globalThis as unknown as DomWindow).document.documentElement;
      return root.scrollWidth - root.clientWidth;
    });
    await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}-${width}.png`), fullPage: true, animations: "disabled" });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  return overflow;
}

/**
 * Signs in as a person does: opens `/`, pastes the key into the key field,
 * presses "Sign in", and waits for the console's navigation.
 */
export async function signIn(page: Page, origin: string, key: string): Promise<void> {
  await page.goto(`${origin}/`);
  await page.getByLabel(/key/i).fill(key);
  await page.getByRole("button", { name: "Sign in" }).click();
  await signedInOrSay(page);
}

/** Waits for the console's navigation; when it does not come, fails with what the page said instead. */
export async function signedInOrSay(page: Page): Promise<void> {
  await page.waitForLoadState();
  try {
    await nav(page, "Overview").waitFor({ timeout: 10_000 });
  } catch {
    throw new Error(`not signed in: ${page.url()} answered ${JSON.stringify((await page.locator("body").innerText()).slice(0, 500))}`);
  }
}

/** A link of the console's navigation bar. */
export function nav(page: Page, name: string): Locator {
  return page.getByRole("navigation").getByRole("link", { name, exact: true });
}

/**
 * Photographs one element of the page at `width` into
 * `SCREENSHOT_DIR/<name>-<width>.png` (the README shows such a close-up),
 * then puts the viewport back to 1,440 px.
 */
export async function shootElement(page: Page, element: Locator, name: string, width: (typeof WIDTHS)[number]): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.waitForLoadState("load");
  await page.setViewportSize({ width, height: width === 360 ? 740 : 900 });
  await element.screenshot({ path: join(SCREENSHOT_DIR, `${name}-${width}.png`), animations: "disabled" });
  await page.setViewportSize({ width: 1440, height: 900 });
}
