/**
 * `cell_entities` links cells and entities by their rowids
 * (`0030-cell-entity-rowids.sql`): a pair of small integers instead of two
 * 26-character ids, stored in the table and again in its entity index. The
 * public ids stay what every answer shows; these fragments turn them into
 * rowids where a link is looked up, written or removed. Rowids of `cells`
 * are stable already (the full-text index keys cells by them), and so are
 * those of `entities`, since nothing may VACUUM the database.
 */

/** The rowid of the entity whose id is bound here, as a scalar subquery. */
export const ENTITY_ROWID = "SELECT rowid FROM entities WHERE entity_id = ?";

/**
 * `(cell_rowid, entity_rowid)` of `n` bound (cell id, entity id) pairs; a
 * pair naming a cell or entity that is not stored gives no row.
 */
export function pairRowids(n: number): string {
  const values = Array.from({ length: n }, () => "(?, ?)").join(", ");
  return `SELECT c.rowid AS cell_rowid, e.rowid AS entity_rowid FROM (VALUES ${values}) v
    CROSS JOIN cells c ON c.cell_id = v.column1 CROSS JOIN entities e ON e.entity_id = v.column2`;
}
