/**
 * The incident story's documents: three Markdown incident reports sharing
 * one shape (`# Incident: …` with the same `Key: value` list), so reading
 * proposes one type, Incident, with the three sections as its evidence —
 * the story of the typed-knowledge integration test — plus two documents
 * that are no incident, for the files list, search and artifacts, and three
 * meeting notes whose shape is proposed as a second type, Meeting, left
 * pending for a viewer to see without the controls to settle it.
 */
const report = (title: string, severity: string, owner: string, service: string, date: string, text: string) =>
  `# Incident: ${title}\n\n- Severity: ${severity}\n- Owner: ${owner}\n- Service: ${service}\n- Date: ${date}\n\n${text}\n`;

const meeting = (topic: string, attendees: string, decision: string) =>
  `# Meeting: ${topic}\n\n- Attendees: ${attendees}\n- Decision: ${decision}\n- Location: Room 4\n\nNotes taken by the chair.\n`;

export const STORY_FILES: ReadonlyArray<readonly [string, string]> = [
  ["incidents/payments.md", report("Payment outage", "high", "Alice", "billing", "2026-03-02", "Payment outage stopped card payments for forty minutes.")],
  ["incidents/login.md", report("Login failures", "medium", "Bob", "accounts", "2026-03-09", "Login failures hit one in ten sign-ins after a certificate expired.")],
  ["incidents/search.md", report("Search latency", "low", "Alice", "search", "2026-03-15", "Search latency doubled while the index was rebuilt.")],
  ["README.md", "# Handbook\n\nHow the team works: incidents are written up within two days of the fix.\n"],
  ["meetings/2026-03-03.md", meeting("Payment outage review", "Alice, Bob", "Card retries get a circuit breaker.")],
  ["meetings/2026-03-10.md", meeting("Certificate renewal", "Bob, Dana", "Certificates renew thirty days ahead.")],
  ["meetings/2026-03-17.md", meeting("Index rebuilds", "Alice, Dana", "Rebuilds move to the night window.")],
  ["docs/billing.md", "# Billing\n\nInvoices are issued on the first day of each month.\n\n## Contacts\n\nThe billing owner is Dana Reyes.\n"],
];

/** The members the Incident type gets, as reading names them. */
export const MEMBERS = ["Login failures", "Payment outage", "Search latency"];
