/**
 * A lookup table keyed by text that comes from outside (paths, words,
 * fence names, entity names, filter names). A plain object literal answers
 * `__proto__`, `constructor` or `toString` from `Object.prototype`, so a file
 * named `__proto__` or a Markdown `&constructor;` would read a function or
 * the prototype as a table entry. The table built here has no prototype:
 * an unknown key, whatever its spelling, is `undefined`.
 */
export function lookupTable<V>(entries: Record<string, V>): Readonly<Partial<Record<string, V>>> {
  return Object.freeze(Object.assign(Object.create(null) as Record<string, V>, entries));
}
