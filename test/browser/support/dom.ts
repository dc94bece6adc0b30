/**
 * The few shapes of the DOM that code run inside the page uses. The project
 * compiles without TypeScript's DOM library (it is a Node service, and that
 * library would let server code name `window` unnoticed), so a function
 * handed to `page.evaluate` (playwright sends its source to the page, so it
 * can close over nothing) starts with `const w = globalThis as unknown as
 * DomWindow;` and reaches the page's globals through `w`.
 */
export interface DomAttribute {
  name: string;
  value: string;
}
export interface DomElement {
  tagName: string;
  outerHTML: string;
  textContent: string | null;
  attributes: ArrayLike<DomAttribute>;
}
export interface DomAnchor extends DomElement {
  href: string;
  protocol: string;
}
export interface DomScript extends DomElement {
  src: string;
}
export interface DomWindow {
  document: {
    activeElement: DomElement | null;
    documentElement: { scrollWidth: number; clientWidth: number };
    scripts: ArrayLike<DomScript>;
    querySelectorAll(selector: string): ArrayLike<DomElement>;
  };
  location: { origin: string; pathname: string; hash: string };
  [global: string]: unknown;
}

