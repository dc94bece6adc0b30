/**
 * The page frame of the console, in hono's JSX: hono is already the HTTP
 * framework here, its JSX renders on the server with no client runtime, and
 * it escapes every interpolated string and attribute — so a document's text
 * can only ever become text. No page uses raw HTML.
 */
import type { Child } from "hono/jsx";
import { CSRF_FIELD } from "./guard.js";

/** Console paths built from ids only (each part percent-encoded); never from document text. */
export const paths = {
  project: (p: string) => `/p/${encodeURIComponent(p)}`,
  files: (p: string) => `/p/${encodeURIComponent(p)}/files`,
  file: (p: string, fileId: string, line?: number) => `/p/${encodeURIComponent(p)}/files/${encodeURIComponent(fileId)}${line ? `#L${line}` : ""}`,
  cell: (p: string, cellId: string) => `/p/${encodeURIComponent(p)}/cells/${encodeURIComponent(cellId)}`,
  search: (p: string) => `/p/${encodeURIComponent(p)}/search`,
  proposals: (p: string) => `/p/${encodeURIComponent(p)}/proposals`,
  types: (p: string) => `/p/${encodeURIComponent(p)}/types`,
  type: (p: string, entityId: string) => `/p/${encodeURIComponent(p)}/types/${encodeURIComponent(entityId)}`,
  artifacts: (p: string) => `/p/${encodeURIComponent(p)}/artifacts`,
  artifact: (p: string, artifactId: string) => `/p/${encodeURIComponent(p)}/artifacts/${encodeURIComponent(artifactId)}`,
  task: (p: string, taskId: string) => `/p/${encodeURIComponent(p)}/tasks/${encodeURIComponent(taskId)}`,
  keys: (p: string) => `/p/${encodeURIComponent(p)}/keys`,
};

export type Section = "overview" | "files" | "search" | "proposals" | "types" | "artifacts" | "keys" | "sign-out";

export interface Frame {
  /** The page's one `<h1>`, also its title. */
  title: string;
  /** The project in view, for the navigation (absent on sign-in and the project list). */
  project?: { projectId: string; name: string; level: string };
  section?: Section;
  /** Load the console's script (only pages that poll need it). */
  script?: boolean;
  /** Whether the visitor is signed in (shows "Sign out" without a project). */
  signedIn?: boolean;
}

const NAV: Array<[Section, string, (p: string) => string]> = [
  ["overview", "Overview", paths.project],
  ["files", "Files", paths.files],
  ["search", "Search", paths.search],
  ["proposals", "Proposed types", paths.proposals],
  ["types", "Types", paths.types],
  ["artifacts", "Artifacts", paths.artifacts],
  ["keys", "Keys", paths.keys],
];

export function Layout(props: Frame & { children?: Child }) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${props.title} · pks`}</title>
        <link rel="icon" href="/assets/icon.svg" type="image/svg+xml" />
        <link rel="stylesheet" href="/assets/console.css" />
        {props.script ? <script src="/assets/console.js" defer></script> : null}
      </head>
      <body>
        <a class="skip" href="#main">
          Skip to content
        </a>
        <header class="top">
          <p class="brand">
            pks
            {props.project ? (
              <span class="where">
                {" "}
                · {props.project.name} <span class="level">({props.project.level})</span> · <a href="/projects">Switch project</a>
              </span>
            ) : null}
          </p>
          <Navigation {...props} />
        </header>
        <main id="main" tabindex={-1}>
          <h1>{props.title}</h1>
          {props.children}
        </main>
      </body>
    </html>
  );
}

/** The project's sections and "Sign out"; without a project, the project list and "Sign out" for a signed-in visitor. */
function Navigation({ project, section, signedIn }: Frame) {
  if (!project && !signedIn) return null;
  const links: Array<[Section | undefined, string, string]> = project ? NAV.map(([id, label, href]) => [id, label, href(project.projectId)]) : [[undefined, "Projects", "/projects"]];
  links.push(["sign-out", "Sign out", "/sign-out"]);
  return (
    <nav aria-label="Console">
      <ul>
        {links.map(([id, label, href]) => (
          <li>
            <a href={href} aria-current={id !== undefined && section === id ? "page" : undefined}>
              {label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** A form that changes something: POST to a console path, with the session's CSRF token. */
export function ActionForm(props: { action: string; csrf: string; label: string; children?: Child; class?: string; danger?: boolean }) {
  return (
    <form method="post" action={props.action} class={props.class ?? "inline"}>
      <input type="hidden" name={CSRF_FIELD} value={props.csrf} />
      {props.children}
      <button type="submit" class={props.danger ? "danger" : undefined}>
        {props.label}
      </button>
    </form>
  );
}

/**
 * A data table in its scrolling frame: one header row of column names (a
 * `[name, class]` pair for a column with a class, e.g. "num"), then the rows.
 */
export function Table(props: { head: Array<string | [string, string]>; caption?: string; children?: Child }) {
  return (
    <div class="wide">
      <table>
        {props.caption ? <caption>{props.caption}</caption> : null}
        <thead>
          <tr>
            {props.head.map((h) =>
              typeof h === "string" ? (
                <th scope="col">{h}</th>
              ) : (
                <th scope="col" class={h[1]}>
                  {h[0]}
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody>{props.children}</tbody>
      </table>
    </div>
  );
}

/** A notice at the top of a page (`role="status"`, or `alert` for problems). */
export function Notice(props: { kind: "ok" | "problem"; children?: Child }) {
  return (
    <div class={`notice ${props.kind}`} role={props.kind === "problem" ? "alert" : "status"}>
      {props.children}
    </div>
  );
}

/** "1 cell", "3 cells": a count with its noun (plural by "s", or the one given). */
export function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** A byte count for people. */
export function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

/** A span of a faction or a packed row: "lines 3–8", "page 2", "0:12". */
export function spanText(loc: { lineStart?: number; lineEnd?: number; pdfPageStart?: number; pdfPageEnd?: number; audioStartMs?: number; videoStartMs?: number }): string {
  if (loc.lineStart) return loc.lineEnd && loc.lineEnd !== loc.lineStart ? `lines ${loc.lineStart}–${loc.lineEnd}` : `line ${loc.lineStart}`;
  if (loc.pdfPageStart) return loc.pdfPageEnd && loc.pdfPageEnd !== loc.pdfPageStart ? `pages ${loc.pdfPageStart}–${loc.pdfPageEnd}` : `page ${loc.pdfPageStart}`;
  const ms = loc.audioStartMs ?? loc.videoStartMs;
  if (ms) return `at ${Math.floor(ms / 60000)}:${String(Math.floor((ms % 60000) / 1000)).padStart(2, "0")}`;
  return "whole file";
}
