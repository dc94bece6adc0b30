/** Search: `memory_query` with its packed rows, each opening its source, and the structured answer with its citations. */
import { isAppError } from "../../errors.js";
import type { MemoryQueryAnswer } from "../../../tools/memory-query.js";
import { count, Notice, paths, spanText } from "../layout.js";
import type { PageContext, Rendered } from "../page.js";
import type { Visit } from "../visit.js";

const DEFAULT_BUDGET = "4096";

export async function searchPage({ visit, project, url }: PageContext): Promise<Rendered> {
  const p = project.projectId;
  const q = url.searchParams.get("q") ?? "";
  const budget = url.searchParams.get("budget") || DEFAULT_BUDGET;
  const schemaText = url.searchParams.get("schema") ?? "";
  const { answer, problem } = q.trim() === "" ? {} : await ask(visit, { q, budget, schemaText });
  return {
    status: problem ? 400 : 200,
    frame: { title: "Search", section: "search" },
    body: (
      <>
        <form method="get" action={paths.search(p)} class="stack">
          <label for="q">Query</label>
          <input id="q" name="q" type="search" value={q} required />
          <label for="budget">Budget (tokens)</label>
          <input id="budget" name="budget" type="number" min="1" step="1" value={budget} />
          <label for="schema">Answer schema (JSON Schema, optional)</label>
          <textarea id="schema" name="schema" rows={5} spellcheck={false}>
            {schemaText}
          </textarea>
          <div>
            <button type="submit">Search</button>
          </div>
        </form>
        {problem ? <Notice kind="problem">{problem}</Notice> : null}
        {answer ? <Results answer={answer} projectId={p} /> : null}
      </>
    ),
  };
}

/** Runs `memory_query` for the form; a schema that is not JSON, or a 400 from the action, is the problem shown. */
async function ask(visit: Visit, form: { q: string; budget: string; schemaText: string }): Promise<{ answer?: MemoryQueryAnswer; problem?: string }> {
  const input: Record<string, unknown> = { query: form.q, budget: Number(form.budget) };
  if (form.schemaText.trim() !== "") {
    try {
      input.schema = JSON.parse(form.schemaText) as unknown;
    } catch {
      return { problem: "The answer schema is not valid JSON." };
    }
  }
  try {
    return { answer: await visit.act<MemoryQueryAnswer>("memory_query", input) };
  } catch (err) {
    if (!isAppError(err) || err.status !== 400) throw err;
    return { problem: err.message };
  }
}

function Results({ answer, projectId: p }: { answer: MemoryQueryAnswer; projectId: string }) {
  return (
    <>
      <p class="meta">
        {count(answer.cells.length, "cell")}, {count(answer.entities.length, "entity", "entities")}, {count(answer.artifacts.length, "artifact")}; {answer.used} of {answer.budget} tokens.
        {answer.indexing ? ` Files are still being read (${answer.indexing.ready} of ${answer.indexing.total} ready): the answer may be partial.` : ""}
      </p>
      {answer.structured !== undefined ? <Structured answer={answer} projectId={p} /> : null}
      <section aria-labelledby="rows">
        <h2 id="rows">Cells</h2>
        {answer.cells.length === 0 ? <p>Nothing matched.</p> : <AnswerCells answer={answer} projectId={p} />}
      </section>
      {answer.entities.length > 0 ? (
        <section aria-labelledby="entities">
          <h2 id="entities">Entities</h2>
          <ul class="plain">
            {answer.entities.map((e) => (
              <li>
                {e.kind === "category" ? <a href={paths.type(p, e.entityId)}>{e.name}</a> : e.name} <span class="tag">{e.kind}</span>
                {e.filepath ? <span class="meta"> {e.filepath}</span> : null}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {answer.artifacts.length > 0 ? (
        <section aria-labelledby="artifacts">
          <h2 id="artifacts">Artifacts</h2>
          <ul class="plain">
            {answer.artifacts.map((a) => (
              <li>
                <a href={paths.artifact(p, a.artifactId)}>{a.title}</a>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}

/** The structured answer, its citations (field pointer → cells) and the fields no row answered. */
function Structured({ answer, projectId: p }: { answer: MemoryQueryAnswer; projectId: string }) {
  const citations = Object.entries(answer.citations ?? {});
  return (
    <section aria-labelledby="structured">
      <h2 id="structured">Structured answer</h2>
      <pre class="json">{JSON.stringify(answer.structured, null, 2)}</pre>
      <h3>Citations</h3>
      {citations.length === 0 ? (
        <p>No field was cited.</p>
      ) : (
        <dl class="facts">
          {citations.map(([pointer, cellIds]) => (
            <>
              <dt>
                <code>{pointer || "/"}</code>
              </dt>
              <dd>
                {cellIds.map((id, i) => (
                  <>
                    {i > 0 ? ", " : ""}
                    <a href={paths.cell(p, id)}>{id}</a>
                  </>
                ))}
              </dd>
            </>
          ))}
        </dl>
      )}
      {answer.missing && answer.missing.length > 0 ? <p>Not answered by any row: {answer.missing.join(", ")}.</p> : null}
    </section>
  );
}

function AnswerCells({ answer, projectId: p }: { answer: MemoryQueryAnswer; projectId: string }) {
  return (
    <ol class="cells">
      {answer.cells.map((c) => (
        <li>
          <p class="claim">{c.text}</p>
          <p class="meta">
            <a href={paths.file(p, c.fileId, c.lineStart)}>
              {c.filepath}
              {c.lineStart || c.pdfPageStart || c.audioStartMs || c.videoStartMs ? `, ${spanText(c)}` : ""}
            </a>
            {" · "}
            <a href={paths.cell(p, c.cellId)}>Open cell {c.cellId}</a>
          </p>
        </li>
      ))}
    </ol>
  );
}
