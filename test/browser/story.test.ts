/**
 * The incident story in a real Chromium, through the console a person uses:
 * sign in by pasting the key (by keyboard alone), read the overview, the
 * files and one file, search, see the proposed Incident type with its three
 * evidence sections beside its fields, confirm it (by keyboard), open a
 * member's filled cell, edit the schema in two tabs and see the second save
 * answered "changed since you opened it" with the current version to start
 * from, generate a summary, follow its task to the end and open a citation
 * onto its cell, mint and revoke a key, sign out; and a viewer, who is
 * offered no change and whose forged one is refused. Every page is
 * photographed at 360 and 1,440 px and must not scroll sideways at either;
 * every page has one `<h1>` and answers with the Content-Security-Policy;
 * the browser asks nothing of another origin and logs no error.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { CHROMIUM_MISSING, findChromium } from "./support/chromium.js";
import type { DomWindow } from "./support/dom.js";
import { faults, foreignRequests, launch, nav, shoot, shootElement, signedInOrSay, signIn, startServer, tabTo, watchedContext } from "./support/harness.js";
import { until } from "../support/until.js";
import type { Served, Watch } from "./support/harness.js";
import { MEMBERS, STORY_FILES } from "./support/story-corpus.js";

const CHROMIUM = findChromium();
if (!CHROMIUM) console.warn(`test/browser/story.test.ts: ${CHROMIUM_MISSING}`);

/** Every page photographed, with its horizontal overflow at each width (for the report and the check). */
const shots: Array<{ name: string; url: string; overflow: Record<number, number> }> = [];

describe.runIf(CHROMIUM)(CHROMIUM ? "the incident story in the console" : `the incident story in the console (${CHROMIUM_MISSING})`, () => {
  let server: Served;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let watch: Watch;
  /** The task poll answered 429 on purpose (its "Failed to load resource" is expected). */
  let refusedPoll = "";
  let newPage: () => Promise<Page>;
  let typeUrl: string;
  let ownerToken: string;
  let viewerKey: string;

  beforeAll(async () => {
    // Each artifact build step pauses 300 ms (a test knob), so the task page is seen running and follows it.
    [server, browser] = await Promise.all([startServer({ PKS_ARTIFACT_STEP_DELAY_MS: "300" }), launch(CHROMIUM!)]);
    // A viewer of the project, made with the admin CLI on the served database while the files are read.
    const viewer = (async () => {
      await server.admin("user", "create", "vera");
      await server.admin("member", "add", "--project", server.projectId, "--user", "vera", "--level", "viewer");
      return (await server.admin<{ apiKey: string }>("key", "create", "--user", "vera", "--project", server.projectId, "--name", "vera")).apiKey;
    })();
    await server.ingest(STORY_FILES);
    // The typing pass runs just after the reading: wait for its proposals before a person looks.
    ownerToken = await server.session();
    await until(
      () => server.api<unknown[]>("GET", `/v1/projects/${server.projectId}/category-proposals`, undefined, ownerToken),
      (r) => r.status === 200 && r.body.length === 2,
      20_000,
      "the Incident and Meeting proposals",
    );
    viewerKey = await viewer;
    ({ context, watch, newPage } = await watchedContext(browser));
    page = await newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** The page in view is `title`: exactly one `<h1>`, saying it; then it is photographed at both widths. */
  async function expectPage(p: Page, title: string | RegExp, shot?: string): Promise<void> {
    await expect.poll(() => p.getByRole("heading", { level: 1 }).allTextContents()).toEqual([expect.stringMatching(title instanceof RegExp ? title : exactly(title))]);
    if (!shot) return;
    const overflow = await shoot(p, shot);
    // Judged at the end, for every page at once, so one wide page does not stop the story.
    shots.push({ name: shot, url: new URL(p.url()).pathname, overflow });
  }

  it("signs in by keyboard alone: Tab to the key field, type the key, Enter; the browser keeps a session, never the key", async () => {
    await page.goto(`${server.origin}/`);
    await expectPage(page, "Sign in", "sign-in");
    await tabTo(page, page.getByLabel("API key"));
    await page.keyboard.type(server.key);
    await page.keyboard.press("Enter");
    await signedInOrSay(page);

    const cookies = await context.cookies();
    const session = cookies.find((c) => c.name === "pks_console");
    expect(session).toMatchObject({ httpOnly: true, sameSite: "Strict" });
    expect(session!.value).not.toContain(server.key);
    for (const c of cookies) expect(c.value).not.toContain(server.key);
    const stored = await page.evaluate(() => {
      const w = globalThis as unknown as DomWindow & { localStorage: { length: number }; sessionStorage: { length: number } };
      return [w.localStorage.length, w.sessionStorage.length];
    });
    expect(stored).toEqual([0, 0]);
    expect(await page.content()).not.toContain(server.key);
  });

  it("overview: the reading is idle with every file ready, the corpus version and no failed file", async () => {
    await expectPage(page, "Overview", "overview");
    const facts = page.getByRole("main");
    await expect.poll(() => facts.getByText("Idle", { exact: true }).count()).toBe(1);
    expect(await definition(page, "Ready")).toBe(String(STORY_FILES.length));
    expect(await definition(page, "Failed")).toBe("0");
    expect(Number(await definition(page, "Corpus version"))).toBeGreaterThan(0);
    await expect.poll(() => facts.getByText("No file failed to read.").count()).toBe(1);
  });

  it("files: the tree lists every file with status, type and size; a file view shows its sections, cells and anchored lines", async () => {
    await nav(page, "Files").click();
    await expectPage(page, "Files", "files");
    for (const [path] of STORY_FILES) {
      const name = path.split("/").pop()!;
      const row = page.getByRole("row").filter({ has: page.getByRole("link", { name, exact: true }) });
      await expect.poll(() => row.count(), { message: path }).toBe(1);
      expect(await row.getByRole("cell").allTextContents()).toEqual([name, "ready", "document", expect.stringMatching(/^\d+ B$/)]);
    }
    await page.getByRole("link", { name: "payments.md", exact: true }).click();
    await expectPage(page, "incidents/payments.md", "file");
    await expect.poll(() => page.getByRole("heading", { name: "Sections" }).count()).toBe(1);
    await expect.poll(() => page.getByText("Owner: Alice", { exact: true }).count()).toBe(1);
    // A section's link lands on its anchored line of the text.
    await page.getByRole("link", { name: "line 1", exact: true }).first().click();
    expect(new URL(page.url()).hash).toBe("#L1");
    const line = page.getByRole("region", { name: "File text" }).getByRole("row").filter({ hasText: "# Incident: Payment outage" });
    expect(await line.getAttribute("id")).toBe("L1");
  });

  it("search: memory_query's rows, each opening its source", async () => {
    await nav(page, "Search").click();
    await page.getByLabel("Query").fill("certificate expired login");
    await page.getByRole("button", { name: "Search" }).click();
    await expectPage(page, "Search", "search");
    const row = page.getByRole("listitem").filter({ hasText: "Login failures hit one in ten sign-ins after a certificate expired." });
    await expect.poll(() => row.count()).toBe(1);
    await row.getByRole("link", { name: /^incidents\/login\.md/ }).click();
    await expectPage(page, "incidents/login.md");
    expect(new URL(page.url()).hash).toMatch(/^#L\d+$/);
  });

  it("proposed types: Incident with its four fields beside its three evidence sections; confirmed by keyboard", async () => {
    await nav(page, "Proposed types").click();
    await expectPage(page, "Proposed types", "proposed-types");
    const card = page.getByRole("article", { name: /^Incident/ });
    await expect.poll(() => card.count()).toBe(1);
    expect(await card.getByRole("heading", { level: 2 }).textContent()).toMatch(/^Incident\s+Pending$/);
    const fields = card.getByRole("table", { name: "Fields of Incident" });
    const rows = await fields.getByRole("row").all();
    const cells = await Promise.all(rows.slice(1).map((r) => r.getByRole("cell").allTextContents()));
    expect(cells.map((c) => c.slice(0, 3))).toEqual([
      ["severity", "text", "yes"],
      ["owner", expect.stringMatching(/^(entity|text)$/), "yes"],
      ["service", "text", "yes"],
      ["date", "date", "yes"],
    ]);
    expect(await card.getByRole("heading", { name: "Evidence (3 sections)" }).count()).toBe(1);
    const evidence = card.getByRole("heading", { level: 4 });
    expect((await evidence.allTextContents()).map((t) => t.split(" ")[0]).sort()).toEqual(["incidents/login.md", "incidents/payments.md", "incidents/search.md"]);
    for (const title of MEMBERS) expect(await card.getByRole("link", { name: `Incident: ${title}` }).count(), title).toBe(1);
    await shootElement(page, card, "proposed-type-incident", 360);

    await tabTo(page, card.getByRole("button", { name: "Confirm" }));
    await page.keyboard.press("Enter");
    await expect.poll(() => page.getByRole("status").textContent()).toBe("Confirmed: the type is made.");
    expect(await page.getByRole("article", { name: /^Incident/ }).getByRole("heading", { level: 2 }).textContent()).toMatch(/^Incident\s+Confirmed$/);
    expect(await page.getByRole("article", { name: /^Incident/ }).getByRole("button").count()).toBe(0);
  });

  it("types: Incident lists its three members with their fields; a member's filled cell opens, and so does a field's source", async () => {
    await nav(page, "Types").click();
    await expectPage(page, "Types", "types");
    await page.getByRole("link", { name: "Incident", exact: true }).click();
    await expectPage(page, "Incident", "type");
    typeUrl = page.url();
    expect(await page.getByRole("heading", { name: "Members (3)" }).count()).toBe(1);
    const members = page.getByRole("row").filter({ has: page.getByRole("rowheader") });
    expect((await members.getByRole("rowheader").allTextContents()).sort()).toEqual(MEMBERS);
    const payment = members.filter({ has: page.getByRole("rowheader", { name: "Payment outage" }) });
    const values = await payment.getByRole("cell").allTextContents();
    expect(values.slice(0, 4).map((v) => v.replace(/\s*\[\d+\]/g, "").trim())).toEqual(["high", "Alice", "billing", "2026-03-02"]);

    await payment.getByRole("link", { name: "source 1 of severity" }).click();
    await expectPage(page, "Cell");
    await expect.poll(() => page.getByRole("blockquote").textContent()).toBe("Severity: high");
    await page.goBack();

    await page.getByRole("link", { name: "Open filled cell of Payment outage" }).click();
    await expectPage(page, "Payment outage (Incident)", "filled-cell");
    const filled = page.getByRole("table", { name: /^Filled cell, read against schema version 1/ });
    const byField = async (field: string) =>
      (await filled.getByRole("row").filter({ has: page.getByRole("rowheader", { name: field, exact: true }) }).getByRole("cell").allTextContents()).map((v) => v.trim());
    expect(await byField("severity")).toEqual(["text", "high [1]"]);
    expect(await byField("owner")).toEqual([expect.stringMatching(/^(entity|text)$/), "Alice [1]"]);
    expect(await byField("service")).toEqual(["text", "billing [1]"]);
    expect(await byField("date")).toEqual(["date", "2026-03-02 [1]"]);
    const text = await page.getByRole("blockquote").textContent();
    expect(text).toContain("Payment outage");
    await filled.getByRole("link", { name: "source 1 of owner" }).click();
    await expectPage(page, "Cell");
    await expect.poll(() => page.getByRole("blockquote").textContent()).toBe("Owner: Alice");
  });

  it("two tabs edit the schema from version 1: the first saves version 2, the second is told it changed since it was opened and starts again from version 2", async () => {
    const first = page;
    const second = await newPage();
    await first.goto(typeUrl);
    await second.goto(typeUrl);
    for (const tab of [first, second]) await expect.poll(() => tab.getByRole("heading", { name: "Schema (version 1)" }).count()).toBe(1);

    await first.getByLabel("Field 5 name").fill("impact");
    await first.getByLabel("Field 5 description").fill("Who was affected");
    await first.getByRole("button", { name: "Save schema" }).click();
    await expect.poll(() => first.getByRole("status").textContent()).toBe("Saved as version 2.");
    expect(await first.getByRole("heading", { name: "Schema (version 2)" }).count()).toBe(1);

    await second.getByLabel("Field 5 name").fill("rootCause");
    await second.getByRole("button", { name: "Save schema" }).click();
    const alert = second.getByRole("alert");
    await expect.poll(() => alert.textContent()).toContain("changed since you opened it");
    expect(await alert.textContent()).toContain("now at version 2");
    await expectPage(second, "Incident", "schema-conflict");
    // The editor now holds version 2; the refused edit is listed to copy from.
    expect(await second.getByRole("heading", { name: "Schema (version 2)" }).count()).toBe(1);
    expect(await second.getByLabel("Field 5 name").inputValue()).toBe("impact");
    const unsaved = second.getByRole("table", { name: "Your edit (not saved)" });
    expect(await unsaved.getByRole("cell", { name: "rootCause", exact: true }).count()).toBe(1);

    await second.getByLabel("Field 6 name").fill("rootCause");
    await second.getByRole("button", { name: "Save schema" }).click();
    await expect.poll(() => second.getByRole("status").textContent()).toBe("Saved as version 3.");
    expect(await second.getByRole("heading", { name: "Schema (version 3)" }).count()).toBe(1);
    expect(await second.getByLabel("Field 6 name").inputValue()).toBe("rootCause");
    await second.close();
  });

  it("artifacts: a summary is generated, its task followed to the end, and a citation opens its cell", async () => {
    await nav(page, "Artifacts").click();
    await expectPage(page, "Artifacts");
    await page.getByLabel("Purpose").fill("A summary of the incident reports: severity, owner and service of each outage");
    // The first poll is answered 429 (as when the person's minute of requests is spent): the script
    // waits out its Retry-After (5 s, longer than its 3 s retry after a failure) and follows the task on.
    let refused = 0;
    let refusedAt = 0;
    let nextPollAt = 0;
    const statusRoute = /\/tasks\/\w+\/status$/;
    await page.route(statusRoute, async (route) => {
      if (refused > 0) {
        nextPollAt ||= Date.now();
        return route.continue();
      }
      refused++;
      refusedAt = Date.now();
      refusedPoll = route.request().url();
      return route.fulfill({ status: 429, headers: { "Retry-After": "5", "Content-Type": "application/json" }, body: '{"error":{"code":"rate_limited","message":"rate limit exceeded"}}' });
    });
    await page.getByRole("button", { name: "Generate" }).click();
    await expectPage(page, "Generating an artifact");
    // Seen while the build runs: its status and progress, which the page's script (same origin, under
    // the CSP) polls and updates, reloading the page once the task has finished.
    expect(await page.getByText(/^Status: (queued|running)$/).count()).toBe(1);
    expect(await page.getByRole("progressbar", { name: "Progress" }).count()).toBe(1);
    const loaded = page.waitForEvent("load");
    const open = page.getByRole("link", { name: /^Open the artifact/ });
    await open.waitFor({ timeout: 30_000 });
    await loaded;
    expect(await page.getByText("succeeded", { exact: true }).count()).toBe(1);
    expect(await page.getByText("3 of 3 steps", { exact: true }).count()).toBe(1);
    expect(refused).toBe(1);
    expect(nextPollAt - refusedAt).toBeGreaterThanOrEqual(4_500);
    await page.unroute(statusRoute);
    expect(watch.requests.filter((u) => /\/tasks\/\w+\/status$/.test(new URL(u).pathname)).length).toBeGreaterThan(0);
    await expectPage(page, "Generating an artifact", "task");
    await open.click();
    await expectPage(page, /^A summary of the incident reports/, "artifact");
    expect(await definition(page, "Kind")).toBe("summary");
    const body = page.getByRole("article");
    const citations = body.getByRole("link", { name: /^\[cel_[0-9A-Za-z]{22}\]$/ });
    expect(await citations.count()).toBeGreaterThan(2);
    const cited = await citations.first().textContent();
    const claim = await body.getByRole("listitem").filter({ has: page.getByRole("link", { name: cited!, exact: true }) }).first().textContent();
    await citations.first().click();
    await expectPage(page, "Cell");
    expect(await page.getByRole("definition").filter({ hasText: /^cel_/ }).first().textContent()).toBe(cited!.slice(1, -1));
    const text = await page.getByRole("blockquote").textContent();
    expect(claim).toContain(text!.trim());

    await nav(page, "Artifacts").click();
    const row = page.getByRole("row").filter({ has: page.getByRole("link", { name: /^A summary of the incident reports/ }) });
    expect((await row.getByRole("cell").allTextContents()).slice(1)).toEqual(["summary", expect.stringMatching(/^\d+$/), "Current"]);
    await expectPage(page, "Artifacts", "artifacts");
  });

  it("keys: an owner mints a key (its plaintext shown once), lists it, and revokes it", async () => {
    await nav(page, "Keys").click();
    await expectPage(page, "Keys");
    await page.getByLabel("Key name").fill("deploy bot");
    await page.getByRole("button", { name: "Mint key" }).click();
    const plaintext = await page.getByLabel("New API key").inputValue();
    expect(plaintext).toMatch(/^pks_/);
    await expectPage(page, "Keys", "keys");
    const works = await server.api("GET", `/v1/projects/${server.projectId}/ingest`, undefined, plaintext);
    expect(works.status).toBe(200);

    await nav(page, "Keys").click();
    expect(await page.content()).not.toContain(plaintext);
    const row = page.getByRole("row").filter({ hasText: "deploy bot" });
    expect(await row.count()).toBe(1);
    await row.getByRole("button", { name: "Revoke" }).click();
    await expect.poll(() => page.getByRole("status").textContent()).toContain("Key revoked");
    expect(await page.getByRole("row").filter({ hasText: "deploy bot" }).getByRole("cell").last().textContent()).toMatch(/^revoked /);
    expect((await server.api("GET", `/v1/projects/${server.projectId}/ingest`, undefined, plaintext)).status).toBe(401);
  });

  it("a viewer sees no control that changes anything, and a change forged from the viewer's page is refused", async () => {
    const viewerSide = await watchedContext(browser);
    try {
      const v = await viewerSide.newPage();
      await signIn(v, server.origin, viewerKey);
      expect(await v.getByText("(viewer)", { exact: true }).count()).toBe(1);
      await nav(v, "Proposed types").click();
      await expectPage(v, "Proposed types");
      expect(await v.getByRole("article", { name: /^Meeting/ }).getByRole("heading", { level: 2 }).textContent()).toMatch(/^Meeting\s+Pending$/);
      await nav(v, "Types").click();
      await v.getByRole("link", { name: "Incident", exact: true }).click();
      await expectPage(v, "Incident");
      expect(await v.getByRole("table", { name: "Fields of Incident" }).count()).toBe(1);
      await nav(v, "Artifacts").click();
      await expectPage(v, "Artifacts");
      await nav(v, "Keys").click();
      await expectPage(v, "Keys");
      // No page the viewer saw in the project offers a change: no such button, no form that posts.
      const seen = viewerSide.watch.documents.filter((d) => d.status === 200 && new URL(d.url).pathname.startsWith("/p/")).map((d) => d.url);
      expect(seen.length).toBe(6);
      for (const url of seen) {
        await v.goto(url);
        expect(await v.getByRole("button", { name: /^(Confirm|Reject|Approve|Save schema|Generate|Mint key|Revoke)$/ }).count(), url).toBe(0);
        const posts = await v.evaluate(() => (globalThis as unknown as DomWindow).document.querySelectorAll("main form[method='post' i]").length);
        expect(posts, url).toBe(0);
      }

      // The form token is the session's (the sign-out form carries it); with it, a forged reject is still refused.
      await nav(v, "Sign out").click();
      const csrf = await v.locator('input[type="hidden"][name="csrf"]').inputValue();
      const proposals = await server.api<Array<{ proposalId: string; name: string; status: number }>>(
        "GET",
        `/v1/projects/${server.projectId}/category-proposals`,
        undefined,
        ownerToken,
      );
      const meeting = proposals.body.find((p) => p.name === "Meeting")!;
      const forged = await v.evaluate(
        async ({ url, csrf }) => {
          const res = await fetch(url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ csrf }).toString(), redirect: "manual" });
          return { status: res.status, text: await res.text() };
        },
        { url: `/p/${server.projectId}/proposals/${meeting.proposalId}/reject`, csrf },
      );
      expect(forged.status).toBe(403);
      expect(forged.text).toContain("editor access required");
      const after = await server.api<Array<{ proposalId: string; status: number }>>("GET", `/v1/projects/${server.projectId}/category-proposals`, undefined, ownerToken);
      expect(after.body.find((p) => p.proposalId === meeting.proposalId)?.status).toBe(0);
      expect(faults(viewerSide.watch).filter((e) => !e.includes("403"))).toEqual([]);
    } finally {
      await viewerSide.context.close();
    }
  });

  it("signs out: the session ends, and the console asks to sign in again", async () => {
    await nav(page, "Sign out").click();
    await expectPage(page, "Sign out", "sign-out");
    await page.getByRole("main").getByRole("button", { name: "Sign out" }).click();
    await expectPage(page, "Sign in");
    await expect.poll(() => page.getByRole("status").textContent()).toBe("You are signed out.");
    await page.goto(typeUrl);
    await expectPage(page, "Sign in");
  });

  it("every page answered with the Content-Security-Policy and fits both widths; nothing was asked of another origin; no error, no dialog", () => {
    expect(watch.documents.length).toBeGreaterThan(20);
    for (const doc of watch.documents) {
      expect(doc.csp, doc.url).toMatch(/frame-ancestors 'none'/);
      expect(doc.csp, doc.url).toMatch(/script-src 'self'(;|$)/);
      expect(doc.frameOptions, doc.url).toBe("DENY");
    }
    expect(foreignRequests(watch, server.origin)).toEqual([]);
    expect(faults(watch).filter((e) => !(refusedPoll && e.endsWith(`(${refusedPoll})`)))).toEqual([]);
    expect(watch.dialogs).toEqual([]);
    // The stale save was answered 409, as a page.
    expect(watch.documents.filter((d) => d.status === 409).map((d) => new URL(d.url).pathname)).toEqual([expect.stringMatching(/\/types\/ent_\w+\/schema$/)]);
    // Readable at both widths: no page scrolls sideways (a wide table scrolls inside its own box).
    const sideways = shots.flatMap((s) => Object.entries(s.overflow).filter(([, px]) => px > 0).map(([w, px]) => `${s.name} at ${w} px: ${px} px too wide`));
    expect(sideways).toEqual([]);
    expect(shots.map((s) => s.name)).toEqual([
      "sign-in",
      "overview",
      "files",
      "file",
      "search",
      "proposed-types",
      "types",
      "type",
      "filled-cell",
      "schema-conflict",
      "task",
      "artifact",
      "artifacts",
      "keys",
      "sign-out",
    ]);
  });
});

/** The text of the `<dd>` after the `<dt>` saying `term`, in the page's main part. */
async function definition(page: Page, term: string): Promise<string> {
  const dt = page.getByRole("main").getByRole("term").filter({ hasText: new RegExp(`^${term}$`) }).first();
  return (await dt.locator("xpath=following-sibling::dd[1]").textContent())!.trim();
}

const exactly = (s: string) => new RegExp(`^${s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`);
