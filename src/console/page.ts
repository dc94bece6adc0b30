import type { Child } from "hono/jsx";
import type { Visit } from "./visit.js";
import type { Frame } from "./layout.js";

/** The project a page is about, as the caller's project list names it. */
export interface ProjectView {
  projectId: string;
  name: string;
  level: string;
}

/** What every project page is handed: the caller's calls, the form token and the request's URL. */
export interface PageContext {
  visit: Visit;
  csrf: string;
  project: ProjectView;
  url: URL;
}

/** What a page handler answers: its frame, its content and its status (200 unless it says). */
export interface Rendered {
  frame: Omit<Frame, "project" | "signedIn">;
  body: Child;
  status?: number;
}

/** A redirect after a change (303: the browser follows with GET). */
export interface Redirect {
  redirect: string;
}

export type PageResult = Rendered | Redirect;

export const isRedirect = (r: PageResult): r is Redirect => "redirect" in r;
