/** Artifacts: the list with stale markers, generation with a purpose, the build's progress, and a body whose citations open their cells. */
import type { Child } from "hono/jsx";
import type { ArtifactListRow, ArtifactResource } from "../../artifacts/resources.js";
import type { TaskView } from "../../tasks/task-endpoints.js";
import { AppError } from "../../errors.js";
import { ActionForm, paths, Table } from "../layout.js";
import type { PageContext, Rendered } from "../page.js";
import type { Visit } from "../visit.js";

/** A citation in a body: `[cel_…]` not preceded by a backslash (the form the builder writes). */
const CITATION = /(?<!\\)\[(cel_[0-9A-Za-z]{22})\]/gu;

export async function artifactsPage({ visit, project, csrf, url }: PageContext): Promise<Rendered> {
  const p = project.projectId;
  const cursor = url.searchParams.get("cursor") ?? "";
  const page = await visit.page<ArtifactListRow>("artifacts.list", { query: { cursor, limit: "100" } });
  return {
    frame: { title: "Artifacts", section: "artifacts" },
    body: (
      <>
        {visit.canEdit ? (
          <section aria-labelledby="generate">
            <h2 id="generate">Generate an artifact</h2>
            <ActionForm action={`${paths.artifacts(p)}/generate`} csrf={csrf} label="Generate" class="stack">
              <label for="purpose">Purpose</label>
              <textarea id="purpose" name="purpose" rows={3} required maxlength={2000}></textarea>
              <p class="meta">Say what it is for: "a summary of the billing documents", "a memo on the deployment incidents"…</p>
            </ActionForm>
          </section>
        ) : null}
        <section aria-labelledby="list">
          <h2 id="list">All artifacts</h2>
          {page.rows.length === 0 ? (
            <p>No artifact yet.</p>
          ) : (
            <Table head={["Title", "Kind", "Corpus version", "Freshness"]}>
              {page.rows.map((a) => (
                <tr>
                  <td>
                    <a href={paths.artifact(p, a.artifactId)}>{a.title}</a>
                  </td>
                  <td>{a.kind}</td>
                  <td>{a.corpusVersion}</td>
                  <td>{a.stale ? <span class="stale">Stale</span> : "Current"}</td>
                </tr>
              ))}
            </Table>
          )}
          {page.nextCursor ? (
            <p>
              <a href={`${paths.artifacts(p)}?${new URLSearchParams({ cursor: page.nextCursor })}`}>Next page</a>
            </p>
          ) : null}
        </section>
      </>
    ),
  };
}

/** Starts a build: `artifact_update` with the purpose; the task's page follows it. */
export async function generateArtifact({ visit, project }: PageContext, form: URLSearchParams): Promise<{ redirect: string }> {
  const purpose = (form.get("purpose") ?? "").trim();
  const queued = await visit.act<{ taskId: string }>("artifact_update", { purpose });
  return { redirect: paths.task(project.projectId, queued.taskId) };
}

export async function artifactPage({ visit, project }: PageContext, artifactId: string): Promise<Rendered> {
  const p = project.projectId;
  const a = await visit.call<ArtifactResource>("artifacts.get", { params: { artifactId } });
  const live = new Map(a.citations.map((c) => [c.cellId, c.live]));
  return {
    frame: { title: a.title, section: "artifacts" },
    body: (
      <>
        {a.stale ? (
          <p class="stale" role="status">
            Stale: a cell it cites has changed or gone since it was built (corpus version {a.corpusVersion}).
          </p>
        ) : null}
        <dl class="facts">
          <dt>Kind</dt>
          <dd>{a.kind}</dd>
          <dt>Purpose</dt>
          <dd>{a.purpose}</dd>
          <dt>Built from corpus version</dt>
          <dd>{a.corpusVersion}</dd>
          <dt>Updated</dt>
          <dd>
            <time datetime={a.updatedAt}>{a.updatedAt}</time>
          </dd>
        </dl>
        <article class="body">{renderBody(a.body, p, live)}</article>
        <section aria-labelledby="citations">
          <h2 id="citations">Citations ({a.citations.length})</h2>
          <ol class="plain">
            {a.citations.map((c) => (
              <li>
                <a href={paths.cell(p, c.cellId)}>{c.cellId}</a>
                {c.live ? null : <span class="stale"> (gone)</span>}
              </li>
            ))}
          </ol>
        </section>
      </>
    ),
  };
}

/**
 * An artifact's Markdown as plain structure — headings, list items and
 * paragraphs, all text — with each `[cel_…]` the body cites made a link to
 * the cell. No Markdown is rendered as HTML, so nothing a document said can
 * become a link, an image or markup.
 */
export function renderBody(body: string, projectId: string, cited: ReadonlyMap<string, boolean>): Child[] {
  const out: Child[] = [];
  let items: Child[] = [];
  const flush = () => {
    if (items.length > 0) out.push(<ul>{items}</ul>);
    items = [];
  };
  for (const raw of body.split("\n")) {
    const line = raw.trimEnd();
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    const item = /^\s*[-*]\s+(.*)$/.exec(line);
    if (heading) {
      flush();
      const text = inline(heading[2]!, projectId, cited);
      out.push(heading[1]!.length <= 1 ? <h2>{text}</h2> : heading[1]!.length === 2 ? <h3>{text}</h3> : <h4>{text}</h4>);
    } else if (item) {
      items.push(<li>{inline(item[1]!, projectId, cited)}</li>);
    } else if (line.trim() === "") {
      flush();
    } else {
      flush();
      out.push(<p>{inline(line, projectId, cited)}</p>);
    }
  }
  flush();
  return out;
}

/** One line's text with its citations as links; Markdown backslash escapes dropped for reading. */
function inline(text: string, projectId: string, cited: ReadonlyMap<string, boolean>): Child[] {
  const parts: Child[] = [];
  let last = 0;
  for (const m of text.matchAll(CITATION)) {
    const cellId = m[1]!;
    parts.push(unescape(text.slice(last, m.index)));
    parts.push(
      cited.has(cellId) ? (
        <a class="cite" href={paths.cell(projectId, cellId)}>
          [{cellId}]
        </a>
      ) : (
        `[${cellId}]`
      ),
    );
    last = m.index + m[0].length;
  }
  parts.push(unescape(text.slice(last)));
  return parts;
}

const unescape = (s: string) => s.replace(/\\([\\`*_{}[\]()#+\-.!|>])/gu, "$1");

/** A task of this project (another project's, or an unknown id, is 404 as the task read says). */
async function taskOf(visit: Visit, taskId: string): Promise<TaskView> {
  const task = await visit.call<TaskView>("tasks.get", { params: { taskId } });
  if (task.projectId !== visit.projectId) throw new AppError("task_not_found");
  return task;
}

/** The small JSON the console's script polls while a task runs. */
export async function taskStatus({ visit }: PageContext, taskId: string): Promise<{ status: string; done: number; total: number; finished: boolean }> {
  const t = await taskOf(visit, taskId);
  return { status: t.status, done: t.progress.done, total: t.progress.total, finished: t.status !== "queued" && t.status !== "running" };
}

export async function taskPage({ visit, project }: PageContext, taskId: string): Promise<Rendered> {
  const p = project.projectId;
  const t = await taskOf(visit, taskId);
  const running = t.status === "queued" || t.status === "running";
  const result = t.result as { artifactId?: string; title?: string } | null | undefined;
  return {
    frame: { title: t.action === "artifact_update" ? "Generating an artifact" : "Task", section: "artifacts", script: running },
    body: (
      <>
        <div class="task" data-poll={running ? `${paths.task(p, taskId)}/status` : undefined}>
          <p>
            Status: <strong id="task-status" aria-live="polite">{t.status}</strong>
          </p>
          <p>
            <label for="task-progress">Progress</label>{" "}
            <progress id="task-progress" max={String(Math.max(t.progress.total, 1))} value={String(t.progress.done)}>
              {t.progress.done} of {t.progress.total}
            </progress>{" "}
            <span id="task-count">
              {t.progress.done} of {t.progress.total} steps
            </span>
          </p>
        </div>
        {running ? (
          <p>
            This page follows the task. <a href={paths.task(p, taskId)}>Refresh</a>
          </p>
        ) : null}
        {t.status === "succeeded" && result?.artifactId ? (
          <p>
            Done: <a href={paths.artifact(p, result.artifactId)}>Open the artifact {result.title ?? ""}</a>
          </p>
        ) : null}
        {t.status === "failed" ? <p role="alert">Failed: {t.error ?? "no reason given"}</p> : null}
        <p>
          <a href={paths.artifacts(p)}>All artifacts</a>
        </p>
      </>
    ),
  };
}
