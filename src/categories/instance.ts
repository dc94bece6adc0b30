/**
 * What typing works on: instances read back from the stored graph. An
 * instance is one thing that may be of a type — a Markdown section, a
 * document's front matter, a table row, a config object — with the
 * `key: value` pairs it states and the cells each pair came from. Proposing
 * types (propose/) groups instances by shape; filling (fill/) reads one
 * instance's values against a type's fields.
 */

/**
 * A live faction and a live cell as typing reads them: the store's rows of
 * the typing material, one definition for both layers.
 */
export type { MaterialFaction as StoredFaction, MaterialCell as StoredCell } from "../store/categories/typing-material.js";

/** Where an instance was read from. */
export type InstanceSource = "section" | "front-matter" | "table" | "config";

/** One stated value of an instance. */
export interface InstanceValue {
  /** The key as written ("Severity", "Root cause", "Status"). */
  key: string;
  /** The value as written, markup removed ("high", "2026-03-02"). */
  value: string;
  /** The cells the pair was read from. */
  cellIds: string[];
}

/** One candidate member of a type. */
export interface Instance {
  source: InstanceSource;
  /**
   * The type name the instance suggests, singular and capitalised, when it
   * names one: a heading's leading word ("Incident" from "Incident: Payment
   * outage"), a config object's parent key ("Service" from `services:`), a
   * table's file name ("Customer" from customers.csv). Undefined otherwise.
   */
  typeHint: string | undefined;
  /** The instance's own name: the heading after the type word, a row's first value, an object's name. */
  title: string;
  fileId: string;
  /** The factions the instance spans; the first is its anchor (a section's heading). */
  factionIds: string[];
  values: InstanceValue[];
}
