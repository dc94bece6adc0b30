/** Overview, files, one file with its anchored lines, and one cell: the console's reads of the corpus. */
import type { Proposal } from "../../categories/resources.js";
import type { Cell, CellContext, Faction, FileResource } from "../../graph/resources.js";
import type { FileText } from "../../graph/read-file-text.js";
import type { LeaseStatus } from "../../ingest/accept/lease-status.js";
import { bytes, count, paths, spanText, Table } from "../layout.js";
import type { PageContext, Rendered } from "../page.js";

/** Lines shown of one file; past it the view says where it stopped. */
const MAX_LINES = 20_000;

export async function overviewPage({ visit, project }: PageContext): Promise<Rendered> {
  const lease = await visit.call<LeaseStatus>("ingest.lease");
  const failed = await visit.page<FileResource>("files.list", { query: { status: "failed", limit: "100" } });
  const proposals = await visit.page<Proposal>("category-proposals.list", { query: { limit: "200" } });
  const waiting = proposals.rows.filter((r) => r.status === 0).length;
  const p = project.projectId;
  return {
    frame: { title: "Overview", section: "overview" },
    body: (
      <>
        <ReadingState lease={lease} />
        <section aria-labelledby="waiting">
          <h2 id="waiting">Waiting for a decision</h2>
          <p>
            {waiting === 0 ? "No proposed type is waiting." : `${count(waiting, "proposed type")}${proposals.nextCursor ? " or more" : ""} waiting: `}
            {waiting > 0 ? <a href={paths.proposals(p)}>review them under Proposed types</a> : null}
          </p>
        </section>
        <section aria-labelledby="failed">
          <h2 id="failed">Failed files</h2>
          {failed.rows.length === 0 ? <p>No file failed to read.</p> : <FailedFiles project={p} files={failed.rows} />}
        </section>
      </>
    ),
  };
}

function ReadingState({ lease }: { lease: LeaseStatus }) {
  return (
    <section aria-labelledby="reading">
      <h2 id="reading">Reading</h2>
      <dl class="facts">
        <dt>State</dt>
        <dd>{lease.state === "reading" ? "Reading files" : lease.state === "scanning" ? "Listing the folder" : "Idle"}</dd>
        <dt>Corpus version</dt>
        <dd>{lease.version}</dd>
        <dt>Ready</dt>
        <dd>{lease.files.ready}</dd>
        <dt>Queued</dt>
        <dd>{lease.files.queued}</dd>
        <dt>Being read</dt>
        <dd>{lease.files.reading}</dd>
        <dt>Failed</dt>
        <dd>{lease.files.failed}</dd>
        <dt>Last change</dt>
        <dd>
          <time datetime={lease.updatedAt}>{lease.updatedAt}</time>
        </dd>
      </dl>
    </section>
  );
}

function FailedFiles(props: { project: string; files: FileResource[] }) {
  return (
    <Table head={["File", "Error"]}>
      {props.files.map((f) => (
        <tr>
          <td>
            <a href={paths.file(props.project, f.fileId)}>{f.path}</a>
          </td>
          <td>{f.error ?? "failed"}</td>
        </tr>
      ))}
    </Table>
  );
}

export async function filesPage({ visit, project, url }: PageContext): Promise<Rendered> {
  const prefix = url.searchParams.get("path") ?? "";
  const cursor = url.searchParams.get("cursor") ?? "";
  const page = await visit.page<FileResource>("files.list", { query: { path: prefix, cursor, limit: "200" } });
  const p = project.projectId;
  const folders = new Map<string, FileResource[]>();
  for (const f of page.rows) folders.set(f.filepath, [...(folders.get(f.filepath) ?? []), f]);
  const next = page.nextCursor ? `${paths.files(p)}?${new URLSearchParams({ path: prefix, cursor: page.nextCursor })}` : undefined;
  return {
    frame: { title: "Files", section: "files" },
    body: (
      <>
        <form method="get" action={paths.files(p)} class="filter">
          <label for="path">Path starts with</label>
          <input id="path" name="path" type="text" value={prefix} />
          <button type="submit">Filter</button>
        </form>
        {prefix ? (
          <p>
            Files under <code>{prefix}</code> · <a href={paths.files(p)}>All files</a>
          </p>
        ) : null}
        {page.totalCount !== undefined ? <p>{count(page.totalCount, "file")}.</p> : null}
        {page.rows.length === 0 ? <p>No files here.</p> : null}
        {[...folders].map(([folder, files]) => (
          <Folder project={p} folder={folder} files={files} />
        ))}
        {next ? (
          <p>
            <a href={next}>Next page</a>
          </p>
        ) : null}
      </>
    ),
  };
}

/** One folder of the files list: its link (the folder as a filter) and its files' table. */
function Folder(props: { project: string; folder: string; files: FileResource[] }) {
  const { project: p, folder } = props;
  return (
    <section class="folder">
      <h2>
        <a href={`${paths.files(p)}?${new URLSearchParams({ path: folder === "" ? "" : `${folder}/` })}`}>{folder === "" ? "/" : `${folder}/`}</a>
      </h2>
      <Table head={["Name", "Status", "Type", ["Size", "num"]]}>
        {props.files.map((f) => (
          <tr>
            <td>
              <a href={paths.file(p, f.fileId)}>{f.name}</a>
            </td>
            <td>
              <span class={`status ${f.status}`}>{f.status}</span>
            </td>
            <td>{f.fileType}</td>
            <td class="num">{bytes(f.fileSize)}</td>
          </tr>
        ))}
      </Table>
    </section>
  );
}

export async function filePage({ visit, project }: PageContext, fileId: string): Promise<Rendered> {
  const params = { fileId };
  const file = await visit.call<FileResource>("files.get", { params });
  const text = await visit.call<FileText>("files.text", { params });
  const factions = (await visit.page<Faction>("factions.list", { query: { fileId } })).rows;
  factions.sort((a, b) => (a.sourceLocation.lineStart ?? 0) - (b.sourceLocation.lineStart ?? 0));
  const cells = await visit.page<Cell>("cells.list", { query: { fileId, limit: "200" } });
  return {
    frame: { title: file.path, section: "files" },
    body: (
      <>
        <FileFacts file={file} />
        <section aria-labelledby="sections">
          <h2 id="sections">Sections</h2>
          {factions.length === 0 ? <p>No sections read from this file.</p> : <SectionList factions={factions} />}
        </section>
        <section aria-labelledby="cells">
          <h2 id="cells">Cells</h2>
          {cells.rows.length === 0 ? <p>No cells read from this file.</p> : <FileCells project={project.projectId} cells={cells.rows} factions={factions} />}
          {cells.nextCursor ? <p>Showing the first {cells.rows.length} cells.</p> : null}
        </section>
        <section aria-labelledby="text">
          <h2 id="text">Text</h2>
          {text.text === null ? <p>This file is not text; its sections above are what was read from it.</p> : <FileLines text={text.text} />}
        </section>
      </>
    ),
  };
}

function FileFacts({ file }: { file: FileResource }) {
  return (
    <dl class="facts">
      <dt>Status</dt>
      <dd>
        <span class={`status ${file.status}`}>{file.status}</span>
      </dd>
      {file.error ? (
        <>
          <dt>Error</dt>
          <dd>{file.error}</dd>
        </>
      ) : null}
      <dt>Type</dt>
      <dd>
        {file.fileType} ({file.contentType})
      </dd>
      <dt>Size</dt>
      <dd>{bytes(file.fileSize)}</dd>
      <dt>Updated</dt>
      <dd>
        <time datetime={file.updatedAt}>{file.updatedAt}</time>
      </dd>
    </dl>
  );
}

function SectionList({ factions }: { factions: Faction[] }) {
  return (
    <ol class="plain">
      {factions.map((f) => (
        <li>
          <span class="tag">{f.factionType}</span>{" "}
          {f.sourceLocation.lineStart ? <a href={`#L${f.sourceLocation.lineStart}`}>{spanText(f.sourceLocation)}</a> : spanText(f.sourceLocation)}
        </li>
      ))}
    </ol>
  );
}

/** A file's cells, each with its link and the line its section starts at. */
function FileCells(props: { project: string; cells: Cell[]; factions: Faction[] }) {
  const factionById = new Map(props.factions.map((f) => [f.factionId, f]));
  return (
    <ol class="cells">
      {props.cells.map((c) => {
        const line = factionById.get(c.factionId)?.sourceLocation.lineStart;
        return (
          <li>
            <p class="claim">{c.text}</p>
            <p class="meta">
              <a href={paths.cell(props.project, c.cellId)}>Open cell {c.cellId}</a>
              {line ? (
                <>
                  {" · "}
                  <a href={`#L${line}`}>line {line}</a>
                </>
              ) : null}
            </p>
          </li>
        );
      })}
    </ol>
  );
}

/** A text file's lines, each anchored (`#L12`), up to MAX_LINES. */
function FileLines({ text }: { text: string }) {
  const lines = text.split("\n");
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  const shown = lines.slice(0, MAX_LINES);
  return (
    <>
      <div class="source" role="region" aria-label="File text" tabindex={0}>
        <table class="lines">
          <tbody>
            {shown.map((line, i) => (
              <tr id={`L${i + 1}`}>
                <td class="ln">
                  <a href={`#L${i + 1}`}>{i + 1}</a>
                </td>
                <td>
                  <code>{line}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {lines.length > shown.length ? <p>Showing the first {MAX_LINES} of {lines.length} lines.</p> : null}
    </>
  );
}

export async function cellPage({ visit, project }: PageContext, cellId: string): Promise<Rendered> {
  const ctx = await visit.call<CellContext>("cells.get", { params: { cellId } });
  const p = project.projectId;
  const { cell, faction } = ctx;
  const fileId = cell.fileIds[0] ?? faction.fileIds[0];
  const line = faction.sourceLocation.lineStart;
  const neighbour = (label: string, c: Cell | null) =>
    c ? (
      <li>
        {label}: <a href={paths.cell(p, c.cellId)}>{excerpt(c.text)}</a>
      </li>
    ) : (
      <li>{label}: none</li>
    );
  return {
    frame: { title: "Cell", section: "files" },
    body: (
      <>
        <blockquote class="claim">{cell.text}</blockquote>
        <dl class="facts">
          <dt>Cell</dt>
          <dd>
            <code>{cell.cellId}</code>
          </dd>
          <dt>Section</dt>
          <dd>
            {faction.factionType} ({faction.inferredType}), {spanText(faction.sourceLocation)}
          </dd>
          <dt>File</dt>
          <dd>{fileId ? <a href={paths.file(p, fileId, line)}>{line ? `${ctx.filepath}:${line}` : ctx.filepath}</a> : ctx.filepath}</dd>
          <dt>Updated</dt>
          <dd>
            <time datetime={cell.updatedAt}>{cell.updatedAt}</time>
          </dd>
        </dl>
        <section aria-labelledby="neighbours">
          <h2 id="neighbours">Neighbours</h2>
          <ul class="plain">
            {neighbour("Previous cell", ctx.neighbours.previous)}
            {neighbour("Next cell", ctx.neighbours.next)}
          </ul>
        </section>
      </>
    ),
  };
}

/** The first words of a text, for a link. */
export function excerpt(text: string, max = 120): string {
  const one = text.replace(/\s+/gu, " ").trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}
