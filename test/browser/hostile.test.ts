/**
 * The console with hostile content, in a real Chromium: documents full of
 * markup, script and `javascript:` links are ingested, and every page that
 * shows their text — the files list, the file view (its text and cells),
 * a cell, a search result, an artifact built from them — renders them as
 * text. Nothing runs (no dialog, the payloads' global stays unset), no
 * element of a payload reaches the DOM, no link leads to `javascript:`, and
 * every page answers with the Content-Security-Policy and loads nothing
 * from another origin.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { CHROMIUM_MISSING, findChromium } from "./support/chromium.js";
import { faults, foreignRequests, launch, nav, shoot, signIn, startServer, watchedContext } from "./support/harness.js";
import { until } from "../support/until.js";
import type { Served, Watch } from "./support/harness.js";
import type { DomAnchor, DomWindow } from "./support/dom.js";
import { HOSTILE_HTML, HOSTILE_MARKDOWN, HOSTILE_PATH, HOSTILE_TEXT, PWNED } from "./support/hostile-corpus.js";

const CHROMIUM = findChromium();
if (!CHROMIUM) console.warn(`test/browser/hostile.test.ts: ${CHROMIUM_MISSING}`);

/** What a payload would leave in the DOM had it not been escaped. */
interface Findings {
  pwned: unknown;
  eventAttributes: string[];
  javascriptUrls: string[];
  payloadElements: string[];
  foreignScripts: string[];
}

/** Reads the live DOM of a page for any trace of a payload that became markup. */
function inspect(page: Page): Promise<Findings> {
  return page.evaluate((pwned) => {
    const w = globalThis as unknown as DomWindow;
    const all = [...Array.from(w.document.querySelectorAll("*"))];
    const eventAttributes: string[] = [];
    const javascriptUrls: string[] = [];
    for (const el of all) {
      for (const a of Array.from(el.attributes)) {
        if (/^on/i.test(a.name)) eventAttributes.push(`<${el.tagName.toLowerCase()} ${a.name}>`);
        if (/^\s*(javascript|vbscript|data):/i.test(a.value.replace(/[\u0000-\u0020]/g, ""))) javascriptUrls.push(`<${el.tagName.toLowerCase()} ${a.name}="${a.value}">`);
      }
    }
    for (const a of Array.from(w.document.querySelectorAll("a") as ArrayLike<DomAnchor>)) if (a.protocol === "javascript:") javascriptUrls.push(a.href);
    const payloadElements = [
      ...Array.from(w.document.querySelectorAll("iframe, frame, object, embed, svg, img, style, base, form[action^='javascript' i], b[onmouseover], [autofocus]")),
    ].map((el) => el.outerHTML.slice(0, 120));
    const foreignScripts = Array.from(w.document.scripts)
      .filter((s) => !s.src || new URL(s.src).origin !== w.location.origin || /pwned|alert/i.test(s.textContent ?? ""))
      .map((s) => s.outerHTML.slice(0, 120));
    return { pwned: w[pwned], eventAttributes, javascriptUrls, payloadElements, foreignScripts };
  }, PWNED);
}

const CLEAN: Findings = { pwned: undefined, eventAttributes: [], javascriptUrls: [], payloadElements: [], foreignScripts: [] };

describe.runIf(CHROMIUM)(CHROMIUM ? "the console shows hostile documents as text" : `the console shows hostile documents as text (${CHROMIUM_MISSING})`, () => {
  let server: Served;
  let browser: Browser;
  let page: Page;
  let watch: Watch;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launch(CHROMIUM!)]);
    await server.ingest([
      ["notes/hostile.md", HOSTILE_MARKDOWN],
      ["notes/escaped.html", HOSTILE_HTML],
      ["notes/plain.txt", HOSTILE_TEXT],
      [HOSTILE_PATH, "# Odd path\n\nA file whose path is hostile.\n"],
    ]);
    const watched = await watchedContext(browser);
    watch = watched.watch;
    page = await watched.newPage();
    await signIn(page, server.origin, server.key);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** Photographs the page at both widths; markup-laden text must not push it sideways either. */
  async function photograph(name: string): Promise<void> {
    const overflow = await shoot(page, name);
    expect(overflow, `${name} scrolls sideways`).toEqual({ 360: expect.any(Number), 1440: expect.any(Number) });
    expect(Math.max(overflow[360]!, overflow[1440]!), `${name} scrolls sideways`).toBeLessThanOrEqual(0);
  }

  /** Reads the DOM of the page in view: nothing of a payload may have become markup or run. */
  async function expectInert(where: string): Promise<void> {
    expect(await inspect(page), where).toEqual(CLEAN);
    expect(watch.dialogs, where).toEqual([]);
  }

  it("the files list names the hostile path as text and the file view shows every payload as text", async () => {
    await nav(page, "Files").click();
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Files");
    const odd = HOSTILE_PATH.split("/").pop()!;
    await expect.poll(() => page.getByRole("link", { name: odd, exact: true }).count()).toBe(1);
    await expectInert("files list");
    await photograph("hostile-files");

    await page.getByRole("link", { name: odd, exact: true }).click();
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe(HOSTILE_PATH);
    await expectInert("file view of the hostile path");

    await nav(page, "Files").click();
    await page.getByRole("link", { name: "hostile.md", exact: true }).click();
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("notes/hostile.md");
    // The file's own text, line by line: each payload is there to read.
    const text = page.getByRole("region", { name: "File text" });
    for (const line of HOSTILE_MARKDOWN.split("\n").filter((l) => l.trim() !== "")) {
      await expect.poll(() => text.getByText(line, { exact: true }).count(), { message: line }).toBeGreaterThan(0);
    }
    await expectInert("file view of notes/hostile.md");
    await photograph("hostile-file");
  });

  it("cells holding decoded markup render as text, in the file view and on the cell's page", async () => {
    await nav(page, "Files").click();
    await page.getByRole("link", { name: "escaped.html", exact: true }).click();
    const decoded = page.getByRole("main").getByText("Decoded markup: <script>", { exact: false });
    await expect.poll(() => decoded.count()).toBe(1);
    expect(await decoded.textContent()).toContain(`<img src=x onerror="window.${PWNED}='decoded-img'`);
    await expectInert("file view of notes/escaped.html");

    await nav(page, "Files").click();
    await page.getByRole("link", { name: "plain.txt", exact: true }).click();
    const cell = page.getByRole("listitem").filter({ hasText: "[x](javascript:alert(1))" });
    await cell.getByRole("link", { name: /^Open cell / }).click();
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Cell");
    await expect.poll(() => page.getByRole("main").getByText('<a href="javascript:', { exact: false }).count()).toBe(1);
    await expectInert("cell page of notes/plain.txt");
    await photograph("hostile-cell");
  });

  it("a search result holding a payload renders as text and opens its source", async () => {
    await nav(page, "Search").click();
    await page.getByLabel("Query").fill("decoded markup payloads");
    await page.getByRole("button", { name: "Search" }).click();
    const row = page.getByRole("listitem").filter({ hasText: "Decoded markup: <script>" });
    await expect.poll(() => row.count()).toBe(1);
    await expectInert("search results");
    await photograph("hostile-search");
    await row.getByRole("link", { name: /^notes\/escaped\.html/ }).click();
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("notes/escaped.html");
    await expectInert("file view opened from a search result");
  });

  it("an artifact built from the hostile cells renders its body and citations as text", async () => {
    const queued = await server.api<{ result: { taskId: string } }>("POST", "/v1/api/actions", {
      action: "artifact_update",
      input: { purpose: "Summary of the decoded markup, plain payloads and links in text", kind: "summary" },
    });
    expect(queued.status).toBe(200);
    const done = await until(
      () => server.api<{ status: string; result?: { artifactId: string; title: string } }>("GET", `/v1/tasks/${queued.body.result.taskId}`),
      (r) => r.body.status !== "queued" && r.body.status !== "running",
      30_000,
      "the artifact",
    );
    expect(done.body.status).toBe("succeeded");
    await nav(page, "Artifacts").click();
    await page.getByRole("link", { name: done.body.result!.title, exact: true }).click();
    await expect.poll(() => page.getByText("Decoded markup: <script>", { exact: false }).count()).toBeGreaterThan(0);
    await expectInert("artifact view");
    await photograph("hostile-artifact");
  });

  it("the same checks catch the payloads when a page pastes the documents as HTML (they can fail)", async () => {
    const raw = await watchedContext(browser);
    try {
      const page = await raw.newPage();
      await page.setContent(`<main>${HOSTILE_MARKDOWN}\n${HOSTILE_TEXT}</main>`);
      await expect.poll(() => raw.watch.dialogs.length).toBeGreaterThan(0);
      const found = await inspect(page);
      expect(found.pwned).toEqual(expect.any(String));
      expect(found.eventAttributes).toContain("<img onerror>");
      expect(found.javascriptUrls.length).toBeGreaterThan(0);
      expect(found.payloadElements.length).toBeGreaterThan(0);
      expect(found.foreignScripts.length).toBeGreaterThan(0);
    } finally {
      await raw.context.close();
    }
  });

  it("every page answered with the strict Content-Security-Policy and the browser asked nothing of another origin", () => {
    expect(watch.documents.length).toBeGreaterThan(5);
    for (const doc of watch.documents) {
      expect(doc.csp, doc.url).toBeDefined();
      expect(doc.csp, doc.url).toMatch(/frame-ancestors 'none'/);
      expect(doc.csp, doc.url).toMatch(/script-src 'self'(;|$)/);
      expect(doc.csp, doc.url).not.toMatch(/unsafe-inline|unsafe-eval/);
    }
    expect(foreignRequests(watch, server.origin)).toEqual([]);
    // A payload's `<img src=x>` would have asked for `/x` (same origin, so the check above misses it).
    expect(watch.requests.filter((u) => new URL(u).pathname.endsWith("/x"))).toEqual([]);
    expect(faults(watch)).toEqual([]);
    expect(watch.dialogs).toEqual([]);
  });
});
