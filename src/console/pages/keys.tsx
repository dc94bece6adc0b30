/** Keys: an owner mints (the plaintext shown once, on the answer to the mint), lists and revokes the keys of their account. */
import type { KeyView } from "../../core/account-endpoints.js";
import { isAppError } from "../../errors.js";
import { ActionForm, Notice, paths, Table } from "../layout.js";
import type { PageContext, Rendered } from "../page.js";

export async function keysPage(ctx: PageContext, minted?: { key: KeyView; apiKey: string }): Promise<Rendered> {
  const { visit, url } = ctx;
  if (!visit.isOwner) {
    return {
      frame: { title: "Keys", section: "keys" },
      body: <p>Keys are minted and revoked by an owner of this project. Ask one for a key, or use the one you signed in with.</p>,
    };
  }
  let keys: KeyView[];
  try {
    keys = (await visit.call<{ keys: KeyView[] }>("keys.list")).keys;
  } catch (err) {
    if (isAppError(err) && err.status === 403) return { status: 403, frame: { title: "Keys", section: "keys" }, body: <p>{err.message}</p> };
    throw err;
  }
  const revoked = url.searchParams.get("revoked");
  return {
    status: minted ? 201 : 200,
    frame: { title: "Keys", section: "keys" },
    body: (
      <>
        {minted ? <MintedKey minted={minted} /> : null}
        {revoked ? <Notice kind="ok">Key revoked: it no longer works, and the sessions it opened are over.</Notice> : null}
        <section aria-labelledby="mint">
          <h2 id="mint">Mint a key</h2>
          <MintForm ctx={ctx} />
        </section>
        <section aria-labelledby="list">
          <h2 id="list">Your keys</h2>
          {keys.length === 0 ? <p>No key.</p> : <KeyTable ctx={ctx} keys={keys} />}
        </section>
      </>
    ),
  };
}

/** The answer to a mint: the plaintext key, shown this once. */
function MintedKey({ minted }: { minted: { key: KeyView; apiKey: string } }) {
  return (
    <Notice kind="ok">
      <p>
        New key <strong>{minted.key.name || minted.key.prefix}</strong>. Copy it now: it is shown this once and never again.
      </p>
      <p>
        <label for="new-key">New API key</label>
        <input id="new-key" type="text" readonly value={minted.apiKey} size={60} spellcheck={false} autocomplete="off" />
      </p>
    </Notice>
  );
}

/** A key minted from a bound session is bound too: the form says so instead of offering the choice. */
function MintForm({ ctx }: { ctx: PageContext }) {
  return (
    <ActionForm action={paths.keys(ctx.project.projectId)} csrf={ctx.csrf} label="Mint key" class="stack">
      <label for="key-name">Key name</label>
      <input id="key-name" name="name" type="text" maxlength={128} />
      {ctx.visit.principal.boundProjectId ? (
        <>
          <input type="hidden" name="bound" value="on" />
          <p>Only for this project: you signed in with a key bound to it, so the keys you mint here are bound to it too.</p>
        </>
      ) : (
        <span class="check">
          <input id="key-bound" name="bound" type="checkbox" value="on" checked />
          <label for="key-bound">Only for this project</label>
        </span>
      )}
    </ActionForm>
  );
}

function KeyTable({ ctx, keys }: { ctx: PageContext; keys: KeyView[] }) {
  const p = ctx.project.projectId;
  return (
    <Table head={["Name", "Prefix", "Project", "Created", "State"]}>
      {keys.map((k) => (
        <tr>
          <td>{k.name || "(no name)"}</td>
          <td>
            <code>{k.prefix}</code>
          </td>
          <td>{k.projectId === null ? "any of yours" : k.projectId === p ? "this project" : k.projectId}</td>
          <td>
            <time datetime={k.createdAt}>{k.createdAt}</time>
          </td>
          <td>
            {k.revokedAt ? (
              `revoked ${k.revokedAt}`
            ) : (
              <>
                {ctx.visit.principal.keyId === k.keyId ? "live (this session's key) " : "live "}
                <ActionForm action={`${paths.keys(p)}/${encodeURIComponent(k.keyId)}/revoke`} csrf={ctx.csrf} label="Revoke" danger />
              </>
            )}
          </td>
        </tr>
      ))}
    </Table>
  );
}

export async function mintKey(ctx: PageContext, form: URLSearchParams): Promise<Rendered> {
  const minted = await ctx.visit.call<{ key: KeyView; apiKey: string }>("keys.create", {
    body: { name: (form.get("name") ?? "").trim(), bound: form.get("bound") === "on" },
  });
  const page = await keysPage(ctx, minted);
  return page;
}

export async function revokeKey(ctx: PageContext, keyId: string): Promise<{ redirect: string }> {
  await ctx.visit.call("keys.revoke", { params: { keyId } });
  return { redirect: `${paths.keys(ctx.project.projectId)}?revoked=1` };
}
