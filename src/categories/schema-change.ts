/**
 * What a proposed schema change changes. Reading proposes fields a type's
 * sections show and its schema lacks; a person approves or rejects the
 * change. Fields are the same field when their names match ignoring case
 * (how the schema's own field rules compare them), so that is also a
 * field's fingerprint: a rejected field stays rejected whatever type a later
 * reading gives it.
 */

/** A field as far as a change is concerned. */
export interface NamedField {
  readonly name: string;
}

/** The fingerprint a rejected field is remembered by. */
export function fieldFingerprint(field: NamedField): string {
  return field.name.toLowerCase();
}

/** The fields of `proposed` that `current` lacks, each once, in `proposed`'s order. */
export function addedFields<F extends NamedField>(current: readonly NamedField[], proposed: readonly F[]): F[] {
  const have = new Set(current.map(fieldFingerprint));
  const out: F[] = [];
  for (const f of proposed) {
    const key = fieldFingerprint(f);
    if (have.has(key)) continue;
    have.add(key);
    out.push(f);
  }
  return out;
}
